package toolopt

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// WithCallValueNames adds names a {name} placeholder may use besides
// [runtime.CallValueNames].
func WithCallValueNames(names ...string) Option {
	return func(c *argConfig) { c.valueNames = append(c.valueNames, names...) }
}

// template is a string value with {name} placeholders: literal parts and
// names, alternating, literal first. "{{" and "}}" are literal braces.
type template struct {
	parts []string // literal, name, literal, name, …, literal
}

// parseTemplate returns the template of s, or nil when s has no placeholder.
// A placeholder whose name is not in known is an error naming it.
func parseTemplate(s string, known []string) (*template, error) {
	if !strings.ContainsAny(s, "{}") {
		return nil, nil
	}
	var parts []string
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c:
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("unclosed placeholder at byte %d (write {{ for a literal {)", i)
			}
			name := s[i+1 : i+end]
			if !slices.Contains(known, name) {
				return nil, fmt.Errorf("unknown placeholder {%s} (known: %s)", name, strings.Join(known, ", "))
			}
			parts = append(parts, lit.String(), name)
			lit.Reset()
			i += end
		case c == '}':
			return nil, fmt.Errorf("a } without { at byte %d (write }} for a literal })", i)
		default:
			lit.WriteByte(c)
		}
	}
	parts = append(parts, lit.String()) // with no name: a literal with escaped braces
	return &template{parts: parts}, nil
}

// fill returns the JSON string of t with values; a name without a value is an
// error naming it.
func (t *template) fill(values map[string]string) ([]byte, error) {
	var b strings.Builder
	for i, p := range t.parts {
		if i%2 == 0 {
			b.WriteString(p)
			continue
		}
		v, ok := values[p]
		if !ok || v == "" {
			return nil, fmt.Errorf("placeholder {%s} has no value for this call", p)
		}
		b.WriteString(v)
	}
	return json.Marshal(b.String())
}
