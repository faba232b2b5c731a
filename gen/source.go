package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	yaml "github.com/oasdiff/yaml3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// source is an input document, read once. Loaders see its JSON form; problems
// are reported at positions in the original text (JSON or YAML).
type source struct {
	name string
	data []byte // as read
	json []byte // the JSON form (data itself for JSON input)
	tree *jsontree.Node
	// pos maps JSON pointers to YAML positions (YAML input only).
	pos map[string]position
}

type position struct{ line, col int }

// readSource parses data as JSON, or as YAML when it is not JSON.
func readSource(name string, data []byte) (*source, error) {
	s := &source{name: name, data: data}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		tree, err := jsontree.Parse(data)
		if err == nil {
			s.json, s.tree = data, tree
			return s, nil
		}
		if !looksLikeYAML(name) {
			se, _ := err.(*jsontree.SyntaxError)
			d := Diagnostic{File: name, Message: err.Error()}
			if se != nil {
				d.Line, d.Col = jsontree.LineCol(data, se.Offset)
				d.Message = se.Msg
			}
			return nil, &Error{Diagnostics: []Diagnostic{d}}
		}
	}
	if err := s.fromYAML(); err != nil {
		return nil, err
	}
	return s, nil
}

func looksLikeYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// fromYAML converts YAML to JSON, recording the position of every value.
func (s *source) fromYAML() error {
	var doc yaml.Node
	if err := yaml.Unmarshal(s.data, &doc); err != nil {
		return &Error{Diagnostics: []Diagnostic{yamlDiagnostic(s.name, err)}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &Error{Diagnostics: []Diagnostic{{File: s.name, Line: 1, Col: 1, Message: "empty document"}}}
	}
	c := &yamlConverter{src: s, budget: 10_000_000}
	s.pos = map[string]position{}
	var b bytes.Buffer
	if err := c.convert(&b, doc.Content[0], "", 0); err != nil {
		return err
	}
	s.json = b.Bytes()
	tree, err := jsontree.Parse(s.json)
	if err != nil { // duplicate keys, which YAML reports itself; keep a message anyway
		return &Error{Diagnostics: []Diagnostic{{File: s.name, Line: 1, Col: 1, Message: err.Error()}}}
	}
	s.tree = tree
	return nil
}

func yamlDiagnostic(name string, err error) Diagnostic {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	d := Diagnostic{File: name, Message: msg}
	// "line 3: mapping values are not allowed in this context"
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				d.Line, d.Col = n, 1
				d.Message = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return d
}

type yamlConverter struct {
	src    *source
	budget int // nodes left to emit: aliases cannot blow up the output
}

func (c *yamlConverter) fail(n *yaml.Node, path, msg string) error {
	return &Error{Diagnostics: []Diagnostic{{File: c.src.name, Line: n.Line, Col: n.Column, Path: path, Message: msg}}}
}

func (c *yamlConverter) convert(b *bytes.Buffer, n *yaml.Node, path string, depth int) error {
	if c.budget--; c.budget < 0 {
		return c.fail(n, path, "document too large after expanding YAML aliases")
	}
	if depth > 10000 {
		return c.fail(n, path, "document nested too deeply")
	}
	if _, ok := c.src.pos[path]; !ok {
		c.src.pos[path] = position{n.Line, n.Column}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return c.fail(n, path, "unknown YAML alias")
		}
		return c.convert(b, n.Alias, path, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return c.convert(b, n.Content[0], path, depth+1)
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := c.convert(b, item, path+"/"+strconv.Itoa(i), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case yaml.MappingNode:
		b.WriteByte('{')
		seen := map[string]bool{}
		first := true
		var members func(m *yaml.Node) error
		members = func(m *yaml.Node) error {
			for i := 0; i+1 < len(m.Content); i += 2 {
				k, v := m.Content[i], m.Content[i+1]
				if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
					target := v
					if target.Kind == yaml.AliasNode {
						target = target.Alias
					}
					if target == nil || target.Kind != yaml.MappingNode {
						return c.fail(v, path, "a YAML merge key must refer to a mapping")
					}
					if err := members(target); err != nil {
						return err
					}
					continue
				}
				if k.Kind == yaml.AliasNode && k.Alias != nil {
					k = k.Alias
				}
				if k.Kind != yaml.ScalarNode {
					return c.fail(k, path, "mapping keys must be scalars")
				}
				key := k.Value
				if seen[key] {
					continue // later merges never override explicit keys
				}
				seen[key] = true
				if !first {
					b.WriteByte(',')
				}
				first = false
				writeJSONString(b, key)
				b.WriteByte(':')
				if err := c.convert(b, v, path+"/"+escapeToken(key), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if err := members(n); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case yaml.ScalarNode:
		return c.scalar(b, n, path)
	}
	return c.fail(n, path, "unsupported YAML node")
}

func (c *yamlConverter) scalar(b *bytes.Buffer, n *yaml.Node, path string) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return c.fail(n, path, err.Error())
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int":
		var v int64
		if err := n.Decode(&v); err == nil {
			b.WriteString(strconv.FormatInt(v, 10))
			return nil
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			b.WriteString(strconv.FormatUint(u, 10))
			return nil
		}
		return c.fail(n, path, fmt.Sprintf("integer %s out of range", n.Value))
	case "!!float":
		var v float64
		if err := n.Decode(&v); err != nil {
			return c.fail(n, path, err.Error())
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return c.fail(n, path, fmt.Sprintf("got %s, want a finite number (JSON has no infinities or NaN)", n.Value))
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	default: // strings, timestamps, binary: their text
		writeJSONString(b, n.Value)
	}
	return nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always encodes
	b.Write(q)
}

// escapeToken escapes a JSON pointer token.
func escapeToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// position returns the line and column of the value at the JSON pointer path
// (or, failing that, at offset in the JSON form), falling back to the nearest
// enclosing value that has one.
func (s *source) position(path string, offset int64) (int, int) {
	if s.pos != nil { // YAML
		for p := path; ; {
			if ps, ok := s.pos[p]; ok {
				return ps.line, ps.col
			}
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				return 1, 1
			}
			p = p[:i]
		}
	}
	if offset >= 0 {
		return jsontree.LineCol(s.data, offset)
	}
	for p := path; ; {
		if n := s.tree.Find(p); n != nil {
			return jsontree.LineCol(s.data, n.Offset)
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return 1, 1
		}
		p = p[:i]
	}
}
