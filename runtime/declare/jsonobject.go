package declare

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// jsonObject is a JSON object that keeps its members in order.
type jsonObject []member

type member struct {
	key   string
	value any
}

func (o jsonObject) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// with returns o with key set to v (replaced in place, or appended); o is not changed.
func (o jsonObject) with(key string, v any) jsonObject {
	out := make(jsonObject, len(o), len(o)+1)
	copy(out, o)
	for i := range out {
		if out[i].key == key {
			out[i].value = v
			return out
		}
	}
	return append(out, member{key, v})
}

func (o jsonObject) without(key string) jsonObject {
	out := make(jsonObject, 0, len(o))
	for _, m := range o {
		if m.key != key {
			out = append(out, m)
		}
	}
	return out
}

// appendValue appends v as JSON: a jsonObject, []any, []string, string, bool,
// float64, int64, int, json.RawMessage (valid JSON) or nil. It writes each
// value once, so a deep schema costs what it weighs (json.Marshal would check
// the output of every nested marshaler again).
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case jsonObject:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			b = appendValue(b, m.value)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, e)
		}
		return append(b, ']')
	case string:
		return appendString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case json.RawMessage:
		return append(b, v...)
	default: // float64, json.Number and the values of enums
		e, err := json.Marshal(v)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, e...)
	}
}

func appendString(b []byte, s string) []byte {
	e, _ := json.Marshal(s) // a string always encodes; invalid UTF-8 becomes U+FFFD
	return append(b, e...)
}

// nestingDepth returns how deep objects nest in a parameters schema written by
// declareParameters, references into its $defs followed (a recursive one
// counted once).
func nestingDepth(root jsonObject) int {
	defs, _ := root.get("$defs").(jsonObject)
	memo := map[string]int{}
	visiting := map[string]bool{}
	var walk func(v any) int
	walk = func(v any) int {
		switch v := v.(type) {
		case jsonObject:
			d := 0
			if ref, ok := v.get("$ref").(string); ok {
				name := strings.TrimPrefix(ref, "#/$defs/")
				if n, ok := memo[name]; ok {
					d = n
				} else if !visiting[name] {
					visiting[name] = true
					for _, m := range defs {
						if jsontree.DefsRef(m.key) == ref {
							d = walk(m.value)
							memo[name] = d
						}
					}
					delete(visiting, name)
				}
			}
			inner := 0
			for _, m := range v {
				switch m.key {
				case "properties":
					if props, ok := m.value.(jsonObject); ok {
						for _, p := range props {
							inner = max(inner, walk(p.value))
						}
					}
				case "items", "anyOf", "oneOf", "additionalProperties":
					inner = max(inner, walk(m.value))
				}
			}
			if v.get("properties") != nil {
				inner++
			}
			return max(d, inner)
		case []any:
			d := 0
			for _, e := range v {
				d = max(d, walk(e))
			}
			return d
		}
		return 0
	}
	return walk(root)
}
