package opentool

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// requiredNames reads a schema's "required": names of its properties props.
func (l *otLoader) requiredNames(v *jsontree.Node, props *jsontree.Node) []string {
	if v.Kind != jsontree.Array {
		l.gotWant(l.here(), v, "an array of property names")
		return nil
	}
	var names []string
	listed := make(map[string]bool, len(v.Items)) // property name -> listed already
	if props != nil && props.Kind == jsontree.Object {
		for _, m := range props.Members {
			listed[m.Key] = false
		}
	}
	for i, it := range v.Items {
		if it.Kind != jsontree.String {
			l.gotWant(l.here()+"/"+strconv.Itoa(i), it, "a property name (a string)")
			continue
		}
		switch seen, isProp := listed[it.Str]; {
		case !isProp:
			l.errorf(l.here()+"/"+strconv.Itoa(i), it.Offset, "got %s, want the name of a property of this schema", strconv.Quote(clipText(it.Str)))
		case seen:
			l.warnf(l.here()+"/"+strconv.Itoa(i), it.Offset, "%s is already listed; ignored", strconv.Quote(clipText(it.Str)))
		default:
			listed[it.Str] = true
			names = append(names, it.Str)
		}
	}
	return names
}

// enum reads a schema's "enum": distinct values of the schema's type.
func (l *otLoader) enum(v *jsontree.Node, typ string, nullable bool) []any {
	switch {
	case v.Kind != jsontree.Array:
		l.gotWant(l.here(), v, "an array of values")
		return nil
	case len(v.Items) == 0:
		l.errorf(l.here(), v.Offset, "got an empty array, want at least one value")
		return nil
	case typ == document.TypeArray || typ == document.TypeObject:
		l.errorf(l.here(), v.Offset, "got an enum with type %s, want type boolean, integer, number or string", typ)
		return nil
	}
	type enumKey struct { // a value, compared by what it means
		kind jsontree.Kind
		s    string // string; number digits (or literal if not exact)
		exp  int64  // number exponent
		b    bool
	}
	values := make([]any, 0, len(v.Items))
	first := make(map[enumKey]int, len(v.Items)) // value -> index
	for i, it := range v.Items {
		n := l.enterIndex(i)
		if ok := l.enumValue(it, typ, nullable); ok {
			var val any
			key := enumKey{kind: it.Kind}
			switch it.Kind {
			case jsontree.Bool:
				val, key.b = it.Bool, it.Bool
			case jsontree.Number:
				val, key.s = json.Number(it.Str), it.Str
				if d, e, exact := jsontree.Decimal(it.Str); exact {
					key.s, key.exp = d, e // 1, 1.0 and 10e-1 are the same
				}
			case jsontree.String:
				val, key.s = it.Str, it.Str
			}
			if j, dup := first[key]; dup {
				l.errorf(l.here(), it.Offset, "got %s again, want distinct values (the same as %s)", describeJSONValue(it), l.firstAt(n, j))
			} else {
				first[key] = i
				values = append(values, val)
			}
		}
		l.leave(n)
	}
	return values
}

// enumValue reports whether v can be a value of an enum of type typ.
func (l *otLoader) enumValue(v *jsontree.Node, typ string, nullable bool) bool {
	if v.Kind == jsontree.Array || v.Kind == jsontree.Object {
		l.gotWant(l.here(), v, "a boolean, number or string")
		return false
	}
	return l.valueOfType(v, typ, nullable)
}

// valueOfType reports whether v is a value of schema type typ (any value when
// typ is ""); null only when nullable. If not, it reports an error.
func (l *otLoader) valueOfType(v *jsontree.Node, typ string, nullable bool) bool {
	var ok bool
	want := "a value of type " + typ
	switch {
	case v.Kind == jsontree.Null:
		ok = nullable
		want = want + ` (null only with "nullable": true)`
	case typ == "":
		ok = true
	case typ == document.TypeInteger:
		want = "an integer"
		if v.Kind == jsontree.Number {
			_, exp, exact := jsontree.Decimal(v.Str)
			ok = exact && exp >= 0
		}
	case typ == document.TypeNumber:
		ok, want = v.Kind == jsontree.Number, "a number"
	case typ == document.TypeString:
		ok, want = v.Kind == jsontree.String, "a string"
	case typ == document.TypeBoolean:
		ok, want = v.Kind == jsontree.Bool, "a boolean"
	case typ == document.TypeArray:
		ok, want = v.Kind == jsontree.Array, "an array"
	case typ == document.TypeObject:
		ok, want = v.Kind == jsontree.Object, "an object"
	}
	if !ok {
		l.gotWant(l.here(), v, want)
	}
	return ok
}

// float reads a number member as a float64.
func (l *otLoader) float(v *jsontree.Node) (float64, bool) {
	if v.Kind != jsontree.Number {
		l.gotWant(l.here(), v, "a number")
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil {
		l.gotWant(l.here(), v, "a number in the range of a float64")
		return 0, false
	}
	return f, true
}

// count reads a non-negative integer member.
func (l *otLoader) count(v *jsontree.Node) *int64 {
	if v.Kind == jsontree.Number {
		if d, exp, ok := jsontree.Decimal(v.Str); ok && exp >= 0 && exp < 19 && !strings.HasPrefix(d, "-") {
			if n, err := strconv.ParseInt(d+strings.Repeat("0", int(exp)), 10, 64); err == nil {
				return &n
			}
		}
	}
	l.gotWant(l.here(), v, "a non-negative integer")
	return nil
}

// appendCanonicalJSON appends v as compact JSON the way encoding/json writes
// it (strings re-encoded, so that the result survives a round trip through
// json.Marshal unchanged).
func appendCanonicalJSON(b []byte, v *jsontree.Node) []byte {
	switch v.Kind {
	case jsontree.Null:
		return append(b, "null"...)
	case jsontree.Bool:
		return strconv.AppendBool(b, v.Bool)
	case jsontree.Number:
		return append(b, v.Str...)
	case jsontree.String:
		s, _ := json.Marshal(v.Str)
		return append(b, s...)
	case jsontree.Array:
		b = append(b, '[')
		for i, it := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalJSON(b, it)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			k, _ := json.Marshal(m.Key)
			b = append(append(b, k...), ':')
			b = appendCanonicalJSON(b, m.Value)
		}
		return append(b, '}')
	}
}

// maxStoredPath bounds the JSON pointers a [Problem] keeps: a longer one, which
// only a document nested thousands of levels deep has, is kept abbreviated as
// messages show it, so that a problem at every level of such a document does
// not take memory growing with the square of its depth.
const maxStoredPath = 16 << 10

// storedPath is p as a Problem keeps it.
func storedPath(p string) string {
	if len(p) > maxStoredPath {
		return jsontree.ShortPointer(p)
	}
	return p
}
