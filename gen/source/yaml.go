package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	yaml "github.com/oasdiff/yaml3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// yamlPosition is where the value (or key) at offset off of the JSON form
// starts in the YAML text.
type yamlPosition struct {
	off       int64
	line, col int32
	file      int32 // in a patched document: the index of the file in Origins, 0 for the document
}

// LooksLikeYAML reports whether the file name says YAML (.yaml, .yml).
func LooksLikeYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// fromYAML converts YAML to JSON, recording the position of every value
// written out in the YAML text (values reached through an alias are reported at
// the alias).
func (s *Source) fromYAML() error {
	var doc yaml.Node
	if err := yaml.Unmarshal(s.Data, &doc); err != nil {
		return &Error{Diagnostics: []Diagnostic{yamlDiagnostic(s.Name, s.Data, err)}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &Error{Diagnostics: []Diagnostic{{File: s.Name, Line: 1, Col: 1, Message: "empty document"}}}
	}
	written := countYAML(doc.Content[0])
	c := &yamlConverter{src: s, limit: minYAMLBudget + yamlExpansion*written}
	c.budget = c.limit
	s.Pos = []yamlPosition{}
	var b bytes.Buffer
	if err := c.convert(&b, doc.Content[0], 0, false); err != nil {
		return err
	}
	s.JSON = b.Bytes()
	tree, err := jsontree.Parse(s.JSON)
	if err != nil { // cannot happen: the converter writes valid JSON without duplicate keys
		return &Error{Diagnostics: []Diagnostic{{File: s.Name, Line: 1, Col: 1, Message: "internal error: " + err.Error()}}}
	}
	s.Tree = tree
	// Mappings are read before the mappings in them: the duplicates in
	// document order.
	sort.SliceStable(s.Duplicates, func(i, j int) bool {
		a, b := s.Duplicates[i], s.Duplicates[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return nil
}

// The values a YAML document may expand to through aliases: minYAMLBudget plus
// yamlExpansion per value written out. An alias bomb ("billion laughs") stops
// there, in milliseconds, instead of filling the memory.
const (
	minYAMLBudget  = 100_000
	yamlExpansion  = 10
	yamlMaxNesting = 10_000
)

// countYAML counts the nodes of a YAML tree, not following aliases.
func countYAML(n *yaml.Node) int {
	count := 1
	for _, c := range n.Content {
		count += countYAML(c)
	}
	return count
}

// yamlParserErrors are the problems the YAML parser (rather than its scanner)
// reports; it reports them at a 0-based line.
var yamlParserErrors = []string{
	"did not find expected",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
	"found duplicate %TAG directive",
}

// maxYAMLSearch is the largest document whose syntax error yamlProblemAt
// looks for (about 23 parses of up to 8 MiB).
const maxYAMLSearch = 8 << 20

// yamlMessage is the parser's message of err without its "yaml: line N: ".
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				return strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return msg
}

// yamlProblemAt returns the offset of the byte at which the YAML parser
// refuses data with the message msg: the last byte of the shortest prefix
// it refuses with msg (by bisection), when the prefix one byte shorter is
// refused with no error or another.
func yamlProblemAt(data []byte, msg string) (int, bool) {
	fails := func(k int) bool {
		var n yaml.Node
		err := yaml.Unmarshal(data[:k], &n)
		return err != nil && yamlMessage(err) == msg
	}
	lo, hi := 0, len(data) // fails(hi); assumed !fails(lo)
	if !fails(hi) {
		return 0, false
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if fails(lo) {
		return 0, false
	}
	return hi - 1, true
}

func yamlDiagnostic(name string, data []byte, err error) Diagnostic {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	d := Diagnostic{File: name, Line: 1, Col: 1, Message: msg}
	// "line 3: mapping values are not allowed in this context"
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				d.Line = n
				d.Message = strings.TrimSpace(rest[i+1:])
				for _, p := range yamlParserErrors {
					if strings.HasPrefix(d.Message, p) {
						d.Line++
						break
					}
				}
			}
		}
	}
	// The parser says the line of the collection it was in, and no column:
	// the problem is where the shortest prefix of the document that it
	// refuses the same way ends.
	if d.Line > 0 && len(data) <= maxYAMLSearch && !strings.HasPrefix(d.Message, "exceeded max depth") {
		if off, ok := yamlProblemAt(data, d.Message); ok {
			for _, p := range yamlParserErrors {
				if strings.HasPrefix(d.Message, p) {
					// The parser refuses a token: at its line's first one
					// ("y: 1" where a "- " item is wanted).
					start := bytes.LastIndexByte(data[:off], '\n') + 1
					off = start + len(data[start:off]) - len(bytes.TrimLeft(data[start:off], " \t"))
					break
				}
			}
			d.Line, d.Col = jsontree.LineCol(data, int64(off))
		}
	}
	// "unknown anchor 'x' referenced": at the first *x.
	if a, ok := strings.CutPrefix(d.Message, "unknown anchor '"); ok {
		if a, ok := strings.CutSuffix(a, "' referenced"); ok {
			if i := bytes.Index(data, []byte("*"+a)); i >= 0 {
				d.Line, d.Col = jsontree.LineCol(data, int64(i))
			}
		}
	}
	return d
}

type yamlConverter struct {
	src    *Source
	limit  int // values the document may expand to
	budget int // values left to write: aliases cannot blow up the output
	// path is the JSON pointer of the value being converted, as a stack: it
	// becomes a string only in a problem (a string per value would cost the
	// square of the depth).
	path []byte
	// aliasAt is where problems under an alias are reported: at the alias,
	// or at the mapping a merge key brings members into.
	aliasAt *yaml.Node
}

// under sets aliasAt to n while the values under it are converted, unless
// they are under an alias already; the returned function restores it.
func (c *yamlConverter) under(n *yaml.Node, aliased bool) func() {
	if aliased {
		return func() {}
	}
	saved := c.aliasAt
	c.aliasAt = n
	return func() { c.aliasAt = saved }
}

func (c *yamlConverter) fail(n *yaml.Node, msg string) error {
	return &Error{Diagnostics: []Diagnostic{{File: c.src.Name, Line: n.Line, Col: n.Column, Path: string(c.path), Message: msg}}}
}

// spend takes one from the budget.
func (c *yamlConverter) spend(n *yaml.Node, aliased bool) error {
	if c.budget--; c.budget < 0 {
		err := c.fail(n, fmt.Sprintf("YAML aliases expand the document to more than %d values (%d plus %d per value written out); want fewer aliases",
			c.limit, minYAMLBudget, yamlExpansion))
		if aliased && c.aliasAt != nil { // at the alias, not inside what it refers to
			err.(*Error).Diagnostics[0].Line, err.(*Error).Diagnostics[0].Col = c.aliasAt.Line, c.aliasAt.Column
		}
		return err
	}
	return nil
}

// record notes that the value or key n starts at offset off of the JSON form.
func (c *yamlConverter) record(off int, n *yaml.Node) {
	if k := len(c.src.Pos); k > 0 && c.src.Pos[k-1].off == int64(off) {
		return // the document node and its content: the first one stays
	}
	c.src.Pos = append(c.src.Pos, yamlPosition{off: int64(off), line: int32(n.Line), col: int32(n.Column)})
}

// enter appends tok to the path of the value being converted, but under an
// alias, where paths stay at the alias; leave(enter(…)) undoes it.
func (c *yamlConverter) enter(tok string, aliased bool) int {
	n := len(c.path)
	if !aliased {
		c.path = jsontree.AppendToken(c.path, tok)
	}
	return n
}

func (c *yamlConverter) leave(n int) { c.path = c.path[:n] }

// convert writes n as JSON. Under an alias (aliased), positions are not
// recorded and paths stay at the alias: problems there are reported at it.
func (c *yamlConverter) convert(b *bytes.Buffer, n *yaml.Node, depth int, aliased bool) error {
	if err := c.spend(n, aliased); err != nil {
		return err
	}
	if depth > yamlMaxNesting {
		return c.fail(n, "document nested too deeply")
	}
	if !aliased {
		c.record(b.Len(), n)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return c.fail(n, "unknown YAML alias")
		}
		defer c.under(n, aliased)()
		return c.convert(b, n.Alias, depth+1, true)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return c.convert(b, n.Content[0], depth+1, aliased)
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			mark := c.enter(strconv.Itoa(i), aliased)
			err := c.convert(b, item, depth+1, aliased)
			c.leave(mark)
			if err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case yaml.MappingNode:
		members, err := c.members(n, depth, aliased)
		if err != nil {
			return err
		}
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			if !m.aliased {
				c.record(b.Len(), m.keyNode)
			}
			writeJSONString(b, m.key)
			b.WriteByte(':')
			mark := c.enter(m.key, m.aliased)
			restore := c.under(n, aliased || !m.aliased) // a merged member: at the mapping
			err := c.convert(b, m.value, depth+1, m.aliased)
			restore()
			c.leave(mark)
			if err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case yaml.ScalarNode:
		return c.scalar(b, n)
	}
	return c.fail(n, "unsupported YAML node")
}

// yamlMember is a member of a YAML mapping.
type yamlMember struct {
	key     string
	keyNode *yaml.Node
	value   *yaml.Node
	aliased bool // from a mapping merged through an alias
}

func isMergeKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag == "!!merge" }

// members returns the members of the mapping m in document order, with merge
// keys ("<<: *base", "<<: [*a, *b]") expanded: m's own keys win over merged
// ones, and of the merged mappings the first that has a key wins.
func (c *yamlConverter) members(m *yaml.Node, depth int, aliased bool) ([]yamlMember, error) {
	if err := c.spend(m, aliased); err != nil {
		return nil, err
	}
	if depth > yamlMaxNesting {
		return nil, c.fail(m, "document nested too deeply")
	}
	own := map[string]*yaml.Node{}
	last := map[string]int{} // of a key that comes again, the index of its last member
	var out []yamlMember
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if isMergeKey(k) {
			continue
		}
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, c.fail(k, "mapping keys must be scalars")
		}
		if first, dup := own[k.Value]; dup {
			// The last one's value, in the first one's place, as for JSON.
			last[k.Value] = i
			if !aliased {
				mark := c.enter(k.Value, aliased)
				c.src.Duplicates = append(c.src.Duplicates, Duplicate{Path: string(c.path), Line: m.Content[i].Line, Col: m.Content[i].Column, FirstLine: first.Line})
				c.leave(mark)
			}
			continue
		}
		own[k.Value] = k
	}
	merged := map[string]bool{}
	done := map[string]bool{} // keys that came again, written once
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !isMergeKey(k) {
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if j, ok := last[k.Value]; ok {
				if done[k.Value] {
					continue
				}
				done[k.Value] = true
				k, v = m.Content[j], m.Content[j+1]
				if k.Kind == yaml.AliasNode {
					k = k.Alias
				}
			}
			out = append(out, yamlMember{key: k.Value, keyNode: k, value: v, aliased: aliased})
			continue
		}
		srcs, srcAliased := []*yaml.Node{v}, aliased
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v, srcAliased = v.Alias, true
		}
		if v.Kind == yaml.SequenceNode {
			srcs = v.Content
		}
		for _, src := range srcs {
			a := srcAliased
			if src.Kind == yaml.AliasNode && src.Alias != nil {
				src, a = src.Alias, true
			}
			if src.Kind != yaml.MappingNode {
				return nil, c.fail(v, "a YAML merge key must refer to a mapping or a sequence of mappings")
			}
			restore := c.under(m, aliased || !a) // at the mapping that merges
			sub, err := c.members(src, depth+1, a)
			restore()
			if err != nil {
				return nil, err
			}
			for _, s := range sub {
				if own[s.key] == nil && !merged[s.key] {
					merged[s.key] = true
					out = append(out, s)
				}
			}
		}
	}
	return out, nil
}

func (c *yamlConverter) scalar(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return c.fail(n, err.Error())
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int":
		if isJSONNumber(n.Value) {
			b.WriteString(n.Value) // as written: 10, not 1e+01
			return nil
		}
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
		return c.fail(n, fmt.Sprintf("integer %s out of range", n.Value))
	case "!!float":
		var v float64
		if err := n.Decode(&v); err != nil {
			return c.fail(n, err.Error())
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return c.fail(n, fmt.Sprintf("got %s, want a finite number (JSON has no infinities or NaN)", n.Value))
		}
		if isJSONNumber(n.Value) {
			b.WriteString(n.Value) // as written: 1.0 stays 1.0, as in JSON
		} else {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
	default: // strings, timestamps, binary: their text
		writeJSONString(b, n.Value)
	}
	return nil
}

// isJSONNumber reports whether s is a JSON number literal.
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	var v json.Number
	return json.Unmarshal([]byte(s), &v) == nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always encodes
	b.Write(q)
}
