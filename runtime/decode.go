package runtime

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Decoder reads a JSON value for generated argument decoders. Generated code
// walks the value it expects (objects, arrays, scalars) and the Decoder checks
// each JSON type as it goes, recording every mismatch as a [Violation] with its
// JSON pointer instead of stopping at the first one; a value of the wrong type is
// skipped. Nothing goes through map[string]any.
//
// A Decoder is not safe for concurrent use. Use [Decode] rather than building one.
type Decoder struct {
	data       []byte
	pos        int
	path       []pathSeg
	violations []Violation
	broken     bool // syntax error: every further read is a no-op
	key        []byte
	scratch    []byte
	stack      []byte
}

type pathSeg struct {
	key   string
	index int // -1 for a key
}

// maxDepth bounds how deep generated decoders may descend (recursive types).
const maxDepth = 1000

var decoderPool = sync.Pool{New: func() any { return new(Decoder) }}

// Decode decodes the raw arguments object of a call into *v with fn, a generated
// decoder. Empty or null raw counts as {} (so missing required arguments are
// reported). It returns nil or the -32602 *Error listing every violation.
func Decode[T any](raw []byte, v *T, fn func(*Decoder, *T)) error {
	d := decoderPool.Get().(*Decoder)
	d.reset(raw)
	if len(raw) == 0 || isNull(raw) {
		d.data, d.pos = emptyObject, 0
	}
	fn(d, v)
	if !d.broken {
		d.ws()
		if d.pos < len(d.data) {
			d.syntax("unexpected data after the arguments object")
		}
	}
	var err error
	if len(d.violations) > 0 {
		err = InvalidParams(d.violations...)
	}
	d.reset(nil)
	decoderPool.Put(d)
	return err
}

func (d *Decoder) reset(data []byte) {
	d.data, d.pos, d.broken = data, 0, false
	d.path = d.path[:0]
	d.violations = d.violations[:0]
	if cap(d.violations) > 64 {
		d.violations = nil
	}
}

// Violations returns the violations recorded so far.
func (d *Decoder) Violations() []Violation { return d.violations }

// Push enters member key of the current object (for the paths of violations).
func (d *Decoder) Push(key string) {
	d.path = append(d.path, pathSeg{key: key, index: -1})
	if len(d.path) > maxDepth {
		d.syntax("arguments nested deeper than " + strconv.Itoa(maxDepth) + " levels")
	}
}

// PushIndex enters element i of the current array.
func (d *Decoder) PushIndex(i int) {
	d.path = append(d.path, pathSeg{index: i})
	if len(d.path) > maxDepth {
		d.syntax("arguments nested deeper than " + strconv.Itoa(maxDepth) + " levels")
	}
}

// Pop leaves the member or element entered last.
func (d *Decoder) Pop() {
	if len(d.path) > 0 {
		d.path = d.path[:len(d.path)-1]
	}
}

// Path returns the JSON pointer of the current position.
func (d *Decoder) Path() string {
	var b strings.Builder
	for _, s := range d.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s.key))
		}
	}
	return b.String()
}

// Invalid records a violation at the current position.
func (d *Decoder) Invalid(msg string) {
	if d.broken {
		return
	}
	d.violations = append(d.violations, Violation{Path: d.Path(), Message: msg})
}

// Missing records that the required member name of the current object is absent.
func (d *Decoder) Missing(name string) {
	d.Push(name)
	d.Invalid("missing required member")
	d.Pop()
}

// NotInEnum records that v is not one of the allowed values (a ready-made list
// such as `"celsius", "fahrenheit"`).
func (d *Decoder) NotInEnum(v any, allowed string) {
	b, _ := json.Marshal(v)
	d.Invalid("got " + string(b) + ", want one of " + allowed)
}

func (d *Decoder) syntax(msg string) {
	if d.broken {
		return
	}
	d.violations = append(d.violations, Violation{Path: d.Path(), Message: "invalid JSON at offset " + strconv.Itoa(d.pos) + ": " + msg})
	d.broken = true
}

func (d *Decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the first byte of the next value, or 0 at the end.
func (d *Decoder) peek() byte {
	if d.broken {
		return 0
	}
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
		return 0
	}
	return d.data[d.pos]
}

func kindOf(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// wrongType records a type mismatch for the value at hand and skips it.
func (d *Decoder) wrongType(c byte, want string) {
	if c == 0 {
		return
	}
	start := d.pos
	d.Skip()
	got := kindOf(c)
	if c != '{' && c != '[' && !d.broken {
		if v := d.data[start:d.pos]; len(v) <= 40 {
			got = string(v)
		}
	}
	d.Invalid("got " + got + ", want " + want)
}

// IsNull reports whether the next value is null, and consumes it if so.
func (d *Decoder) IsNull() bool {
	if d.peek() == 'n' {
		d.literal("null")
		return true
	}
	return false
}

func (d *Decoder) literal(lit string) bool {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	d.syntax("invalid literal")
	return false
}

// Object starts reading an object. It returns false (after recording a
// violation and skipping the value) when the next value is not an object.
func (d *Decoder) Object() bool {
	c := d.peek()
	if c != '{' {
		d.wrongType(c, "object")
		return false
	}
	d.pos++
	return true
}

// Next moves to the next member of the object begun with Object: it returns true
// with the member's key in Key and the decoder at its value, or false after the
// closing brace. The value must be read (or skipped) before calling Next again.
func (d *Decoder) Next() bool {
	if d.broken {
		return false
	}
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input in an object")
		return false
	}
	c := d.data[d.pos]
	if c == '}' {
		d.pos++
		return false
	}
	if c == ',' {
		d.pos++
		d.ws()
	}
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntax("want a member name")
		return false
	}
	k, ok := d.readString(d.key[:0])
	if !ok {
		return false
	}
	d.key = k
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.syntax("want ':' after a member name")
		return false
	}
	d.pos++
	return true
}

// Key returns the key of the current member (valid until the next call of Next).
func (d *Decoder) Key() []byte { return d.key }

// Array starts reading an array; see Object.
func (d *Decoder) Array() bool {
	c := d.peek()
	if c != '[' {
		d.wrongType(c, "array")
		return false
	}
	d.pos++
	return true
}

// NextItem moves to the next element of the array begun with Array, or returns
// false after the closing bracket.
func (d *Decoder) NextItem() bool {
	if d.broken {
		return false
	}
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input in an array")
		return false
	}
	switch d.data[d.pos] {
	case ']':
		d.pos++
		return false
	case ',':
		d.pos++
	}
	return true
}

// String reads a string; ok is false after a violation.
func (d *Decoder) String() (string, bool) {
	c := d.peek()
	if c != '"' {
		d.wrongType(c, "string")
		return "", false
	}
	start := d.pos + 1
	// fast path: no escapes
	for i := start; i < len(d.data); i++ {
		switch b := d.data[i]; {
		case b == '"':
			s := string(d.data[start:i])
			d.pos = i + 1
			return s, true
		case b == '\\' || b < 0x20 || b >= 0x80:
			i = len(d.data)
		}
	}
	b, ok := d.readString(d.scratch[:0])
	if !ok {
		return "", false
	}
	d.scratch = b
	return string(b), true
}

// readString reads a JSON string at d.pos (which is '"') into dst, unescaped.
func (d *Decoder) readString(dst []byte) ([]byte, bool) {
	i := d.pos + 1
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return dst, true
		case c < 0x20:
			d.pos = i
			d.syntax("control character in a string")
			return dst, false
		case c == '\\':
			if i+1 >= len(d.data) {
				d.pos = i
				d.syntax("unterminated string")
				return dst, false
			}
			i++
			switch e := d.data[i]; e {
			case '"', '\\', '/':
				dst = append(dst, e)
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r, n := d.hex4(i + 1)
				if n < 0 {
					d.pos = i
					d.syntax("invalid \\u escape")
					return dst, false
				}
				i += 4
				if utf16IsSurrogate(r) {
					r2, n2 := rune(-1), -1
					if i+2 < len(d.data) && d.data[i+1] == '\\' && d.data[i+2] == 'u' {
						r2, n2 = d.hex4(i + 3)
					}
					if n2 >= 0 && r >= 0xD800 && r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000 {
						r = (r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				dst = utf8.AppendRune(dst, r)
			default:
				d.pos = i
				d.syntax("invalid escape in a string")
				return dst, false
			}
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError) // as encoding/json does
			} else {
				dst = append(dst, d.data[i:i+size]...)
			}
			i += size
		}
	}
	d.pos = i
	d.syntax("unterminated string")
	return dst, false
}

func utf16IsSurrogate(r rune) bool { return r >= 0xD800 && r < 0xE000 }

func (d *Decoder) hex4(i int) (rune, int) {
	if i+4 > len(d.data) {
		return 0, -1
	}
	var r rune
	for _, c := range d.data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, -1
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}

// number reads a JSON number literal and returns it.
func (d *Decoder) number() ([]byte, bool) {
	start := d.pos
	i := start
	if i < len(d.data) && d.data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d.data) && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if n := digits(); n == 0 || (n > 1 && d.data[start] == '0') || (n > 1 && d.data[start] == '-' && d.data[start+1] == '0') {
		d.syntax("invalid number")
		return nil, false
	}
	if i < len(d.data) && d.data[i] == '.' {
		i++
		if digits() == 0 {
			d.syntax("invalid number")
			return nil, false
		}
	}
	if i < len(d.data) && (d.data[i] == 'e' || d.data[i] == 'E') {
		i++
		if i < len(d.data) && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			d.syntax("invalid number")
			return nil, false
		}
	}
	d.pos = i
	return d.data[start:i], true
}

// Int reads an integer that fits in int64. A number with a fraction or exponent
// is accepted when its value is integral (5.0, 1e3).
func (d *Decoder) Int() (int64, bool) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.wrongType(c, "integer")
		return 0, false
	}
	lit, ok := d.number()
	if !ok {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err == nil && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return int64(f), true
	}
	if err == nil && f == math.Trunc(f) {
		d.Invalid("got " + string(lit) + ", want an integer within the range of int64")
	} else {
		d.Invalid("got " + string(lit) + ", want integer")
	}
	return 0, false
}

// IntRange reads an integer and checks that it lies in [lo, hi] (the range of a
// C type, a schema's minimum and maximum).
func (d *Decoder) IntRange(lo, hi int64) (int64, bool) {
	n, ok := d.Int()
	if ok && (n < lo || n > hi) {
		d.Invalid("got " + strconv.FormatInt(n, 10) + ", want an integer from " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10))
		return 0, false
	}
	return n, ok
}

// Uint reads a non-negative integer that fits in uint64.
func (d *Decoder) Uint() (uint64, bool) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.wrongType(c, "integer")
		return 0, false
	}
	lit, ok := d.number()
	if !ok {
		return 0, false
	}
	if n, err := strconv.ParseUint(string(lit), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err == nil && f == math.Trunc(f) && f >= 0 && f < 1<<64 {
		return uint64(f), true
	}
	d.Invalid("got " + string(lit) + ", want a non-negative integer within the range of uint64")
	return 0, false
}

// Float reads a number.
func (d *Decoder) Float() (float64, bool) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.wrongType(c, "number")
		return 0, false
	}
	lit, ok := d.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		d.Invalid("got " + string(lit) + ", want a number within the range of float64")
		return 0, false
	}
	return f, true
}

// Bool reads a boolean.
func (d *Decoder) Bool() (bool, bool) {
	switch c := d.peek(); c {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	default:
		d.wrongType(c, "boolean")
		return false, false
	}
}

// Raw returns the next value as raw JSON (a copy), after checking its syntax.
func (d *Decoder) Raw() json.RawMessage {
	if d.peek() == 0 {
		return nil
	}
	start := d.pos
	d.Skip()
	if d.broken {
		return nil
	}
	return append(json.RawMessage(nil), d.data[start:d.pos]...)
}

// Any decodes the next value with encoding/json into v (a pointer): for values
// the schema does not type (free-form objects).
func (d *Decoder) Any(v any) bool {
	raw := d.Raw()
	if raw == nil {
		return false
	}
	if err := json.Unmarshal(raw, v); err != nil {
		d.Invalid(err.Error())
		return false
	}
	return true
}

// Skip skips the next value, checking its syntax. It does not recurse: nesting
// is tracked on a stack of open containers.
func (d *Decoder) Skip() {
	stack := d.stack[:0]
	defer func() { d.stack = stack[:0] }()
	for {
		// at a value
		c := d.peek()
		if c == 0 {
			return
		}
		switch c {
		case '{', '[':
			d.pos++
			d.ws()
			if d.pos < len(d.data) && d.data[d.pos] == c+2 { // '}' or ']'
				d.pos++
				break
			}
			stack = append(stack, c)
			if c == '{' && !d.skipKey() {
				return
			}
			continue
		case '"':
			if _, ok := d.readString(d.scratch[:0]); !ok {
				return
			}
		case 't':
			d.literal("true")
		case 'f':
			d.literal("false")
		case 'n':
			d.literal("null")
		default:
			if _, ok := d.number(); !ok {
				return
			}
		}
		// after a value: close containers, or move to the next member or element
		for {
			if d.broken || len(stack) == 0 {
				return
			}
			d.ws()
			if d.pos >= len(d.data) {
				d.syntax("unexpected end of input")
				return
			}
			top := stack[len(stack)-1]
			switch d.data[d.pos] {
			case top + 2:
				d.pos++
				stack = stack[:len(stack)-1]
				continue
			case ',':
				d.pos++
				if top == '{' && !d.skipKey() {
					return
				}
			default:
				d.syntax("want ',' or the end of a container")
				return
			}
			break
		}
	}
}

func (d *Decoder) skipKey() bool {
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntax("want a member name")
		return false
	}
	if _, ok := d.readString(d.scratch[:0]); !ok {
		return false
	}
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.syntax("want ':' after a member name")
		return false
	}
	d.pos++
	return true
}
