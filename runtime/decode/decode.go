// Package decode reads and checks the arguments (and checked REST responses) of generated packages: the Decoder their decoders drive, the JSON Schema keyword checks, the encoders of results and the cases of a generated Tool's Call.
package decode

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Decoder reads a JSON value for generated argument decoders. Generated code
// walks the value it expects (objects, arrays, scalars) and the Decoder checks
// each JSON type as it goes, recording every mismatch as a [runtime.Violation] with its
// JSON pointer instead of stopping at the first one; a value of the wrong type is
// skipped. Nothing goes through map[string]any.
//
// A Decoder is not safe for concurrent use. Use [Value] rather than building one.
type Decoder struct {
	data       []byte
	pos        int
	path       []pathSeg
	violations []runtime.Violation
	omitted    int    // violations past maxViolations
	depth      int    // containers open (Object, Array)
	broken     bool   // syntax error: every further read is a no-op
	key        []byte // the current member's key: a view of data or of keyBuf
	keyBuf     []byte // the unescaped key when it has escapes
	scratch    []byte
	stack      []byte
	response   bool         // Response: writeOnly members may be absent (WriteOnly)
	swaps      []decodeSwap // the inputs Map left for the objects it made of map entries
}

// pathSeg is one step of the path of the value being read: a member pushed by
// Push, an element pushed by PushIndex, or the frame of an object or array the
// generated code is reading (Object, Array), which follows Next and NextItem.
type pathSeg struct {
	key   string
	index int // -1 for a key
	frame byte
	keyb  []byte // the current member of an object frame (nil: between members)
	n     int    // the number of elements an array frame has begun
}

const (
	frameNone   byte = iota // Push, PushIndex
	frameObject             // Object: keyb is the current member
	frameArray              // Array: index is the current element (-1: none yet)
)

// maxDepth bounds how deep generated decoders may descend (recursive types).
const maxDepth = 1000

// maxSkipDepth bounds the nesting of the values Skip, Raw and Any accept,
// counting the containers the generated decoder is in (Object, Array). It is
// encoding/json's limit, so that the Decoder accepts exactly the documents
// encoding/json accepts and Any can decode whatever Raw returns.
const maxSkipDepth = 10000

var decoderPool = sync.Pool{New: func() any { return new(Decoder) }}

// Value decodes the raw arguments object of a call into *v with fn, a generated
// decoder. Empty or null raw counts as {} (so missing required arguments are
// reported). It returns nil or the -32602 *Error listing every violation.
func Value[T any](raw []byte, v *T, fn func(*Decoder, *T)) error {
	return decode(raw, v, fn, false)
}

// decode is Value; response says the value is a response (WriteOnly).
func decode[T any](raw []byte, v *T, fn func(*Decoder, *T), response bool) error {
	d := decoderPool.Get().(*Decoder)
	d.reset(raw)
	d.response = response
	if isEmptyArgs(raw) {
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
		err = runtime.InvalidParams(d.reported()...)
	}
	d.reset(nil)
	decoderPool.Put(d)
	return err
}

// isEmptyArgs reports whether raw is empty, JSON whitespace, or null (with
// JSON whitespace around it).
func isEmptyArgs(raw []byte) bool {
	i, j := 0, len(raw)
	for i < j && isSpace(raw[i]) {
		i++
	}
	for j > i && isSpace(raw[j-1]) {
		j--
	}
	return i == j || string(raw[i:j]) == "null"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// maxPooledBuf is the largest buffer a pooled Decoder keeps between calls.
const maxPooledBuf = 64 << 10

func (d *Decoder) reset(data []byte) {
	d.data, d.pos, d.depth, d.broken, d.omitted = data, 0, 0, false, 0
	d.response = false
	d.key = nil
	clear(d.swaps)
	d.swaps = d.swaps[:0]
	clear(d.path)
	d.path = d.path[:0]
	clear(d.violations)
	d.violations = d.violations[:0]
	if cap(d.violations) > 64 {
		d.violations = nil
	}
	if cap(d.path) > 64 {
		d.path = nil
	}
	if cap(d.keyBuf) > maxPooledBuf {
		d.keyBuf = nil
	}
	if cap(d.scratch) > maxPooledBuf {
		d.scratch = nil
	}
	if cap(d.stack) > maxPooledBuf {
		d.stack = nil
	}
}

// Violations returns the violations recorded so far.
func (d *Decoder) Violations() []runtime.Violation { return d.violations }

// Push enters member key of the current object (for the paths of violations).
// Beyond maxDepth levels the Decoder records a violation and stops reading, so
// that the generated decoder of a recursive type unwinds.
func (d *Decoder) Push(key string) {
	d.path = append(d.path, pathSeg{key: key, index: -1})
	if len(d.path) > maxDepth {
		d.tooDeep(maxDepth)
	}
}

// PushIndex enters element i of the current array.
func (d *Decoder) PushIndex(i int) {
	d.path = append(d.path, pathSeg{index: i})
	if len(d.path) > maxDepth {
		d.tooDeep(maxDepth)
	}
}

func (d *Decoder) tooDeep(limit int) {
	if d.broken {
		return
	}
	d.violate("arguments nested deeper than " + strconv.Itoa(limit) + " levels")
	d.broken = true
}

// Pop leaves the member or element entered last.
func (d *Decoder) Pop() {
	if len(d.path) > 0 {
		d.path = d.path[:len(d.path)-1]
	}
}

// Path returns the JSON pointer of the current position.
func (d *Decoder) Path() string {
	var b []byte
	for _, s := range d.path {
		key := s.key
		switch s.frame {
		case frameObject:
			if s.keyb == nil {
				continue
			}
			key = string(s.keyb)
		case frameArray:
			if s.index < 0 {
				continue
			}
		}
		b = append(b, '/')
		if s.index >= 0 {
			b = strconv.AppendInt(b, int64(s.index), 10)
			continue
		}
		for i := 0; i < len(key); i++ {
			switch c := key[i]; c {
			case '~':
				b = append(b, '~', '0')
			case '/':
				b = append(b, '~', '1')
			default:
				b = append(b, c)
			}
		}
	}
	return string(b)
}

// Invalid records a violation at the current position.
func (d *Decoder) Invalid(msg string) {
	if d.broken {
		return
	}
	d.violate(msg)
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
	if d.broken {
		return
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		b.Reset()
		fmt.Fprint(&b, v)
	}
	d.Invalid("got " + strings.TrimSuffix(b.String(), "\n") + ", want one of " + allowed)
}

func (d *Decoder) syntax(msg string) {
	if d.broken {
		return
	}
	d.violate("invalid JSON at offset " + strconv.Itoa(d.pos) + ": " + msg)
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

// peek returns the first byte of the next value, or 0 (after recording a
// syntax error) at the end of the input or at a byte no value starts with.
func (d *Decoder) peek() byte {
	if d.broken {
		return 0
	}
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
		return 0
	}
	c := d.data[d.pos]
	switch c {
	case '{', '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return c
	}
	d.syntax("want a value")
	return 0
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
func (d *Decoder) Object() bool { return d.open('{', "object", frameObject) }

// open enters the container that starts with the byte open, or records a
// type violation and skips the value.
func (d *Decoder) open(open byte, kind string, frame byte) bool {
	c := d.peek()
	if c != open {
		d.wrongType(c, kind)
		return false
	}
	d.pos++
	d.depth++
	d.pushFrame(pathSeg{index: -1, frame: frame})
	return true
}

// pushFrame enters an object or array; beyond maxDepth levels the Decoder
// records a violation and stops reading, so that the generated decoder of a
// recursive type unwinds.
func (d *Decoder) pushFrame(s pathSeg) {
	d.path = append(d.path, s)
	if len(d.path) > maxDepth+1 { // the arguments object itself is not a level
		d.tooDeep(maxDepth)
	}
}

// popFrame leaves the object or array entered last, if it is still open.
func (d *Decoder) popFrame(kind byte) {
	if n := len(d.path); n > 0 && d.path[n-1].frame == kind {
		d.path[n-1] = pathSeg{}
		d.path = d.path[:n-1]
	}
}

// Next moves to the next member of the object begun with Object: it returns true
// with the member's key in Key and the decoder at its value, or false after the
// closing brace (or a syntax error). The value must be read (or skipped) before
// calling Next again, and Next must be called until it returns false: the path
// of violations follows it.
func (d *Decoder) Next() bool {
	n := len(d.path)
	if n > 0 && d.path[n-1].frame == frameObject {
		d.path[n-1].keyb = nil // between members
	}
	if !d.next() {
		d.popFrame(frameObject)
		d.resume()
		return false
	}
	if n > 0 && d.path[n-1].frame == frameObject {
		k := d.key
		if len(k) > 0 && len(d.keyBuf) > 0 && &k[0] == &d.keyBuf[0] {
			k = append([]byte(nil), k...) // keyBuf is reused by nested objects
		}
		d.path[n-1].keyb = k
	}
	return true
}

func (d *Decoder) next() bool {
	if !d.separator('{', '}', "object", "member") {
		return false
	}
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntax("want a member name")
		return false
	}
	if !d.readKey() {
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

// Key returns the key of the current member (valid until the next call of Next).
func (d *Decoder) Key() []byte { return d.key }

// readKey reads the member name at d.pos into d.key: a view of the input when
// it has no escapes, else unescaped into keyBuf.
func (d *Decoder) readKey() bool {
	start := d.pos + 1
	for i := start; i < len(d.data); i++ {
		switch b := d.data[i]; {
		case b == '"':
			d.key = d.data[start:i]
			d.pos = i + 1
			return true
		case b == '\\' || b < 0x20 || b >= 0x80:
			k, ok := d.readString(d.keyBuf[:0])
			if !ok {
				return false
			}
			d.keyBuf, d.key = k, k
			return true
		}
	}
	d.pos = len(d.data)
	d.syntax("unterminated string")
	return false
}

// Array starts reading an array; see Object.
func (d *Decoder) Array() bool { return d.open('[', "array", frameArray) }

// NextItem moves to the next element of the array begun with Array, or returns
// false after the closing bracket (or a syntax error). Like Next, it must be
// called until it returns false.
func (d *Decoder) NextItem() bool {
	n := len(d.path)
	if n > 0 && d.path[n-1].frame == frameArray {
		d.path[n-1].index = -1 // between elements
	}
	if !d.nextItem() {
		d.popFrame(frameArray)
		return false
	}
	if n > 0 && d.path[n-1].frame == frameArray {
		d.path[n-1].index = d.path[n-1].n
		d.path[n-1].n++
	}
	return true
}

func (d *Decoder) nextItem() bool {
	if !d.separator('[', ']', "array", "element") {
		return false
	}
	if d.data[d.pos] == ']' {
		d.syntax("want a value")
		return false
	}
	return true
}

// separator moves to the next member or element of the container opened by
// open: past the ',' that must separate it from the previous one. It returns
// false at the closing byte (consumed) or on a syntax error.
func (d *Decoder) separator(open, close byte, container, item string) bool {
	if d.broken {
		return false
	}
	// Right after Object or Array the previous byte is the opening one; after
	// a member's value or an element it is the value's last byte, which never is.
	first := d.pos > 0 && d.data[d.pos-1] == open
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input in an " + container)
		return false
	}
	c := d.data[d.pos]
	if c == close {
		d.pos++
		d.depth--
		return false
	}
	if !first {
		if c != ',' {
			d.syntax("want ',' or '" + string(close) + "' after an " + container + " " + item)
			return false
		}
		d.pos++
		d.ws()
		if d.pos >= len(d.data) {
			d.syntax("unexpected end of input in an " + container)
			return false
		}
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
			j := i + 1
			for j < len(d.data) && d.data[j] >= 0x20 && d.data[j] < utf8.RuneSelf && d.data[j] != '"' && d.data[j] != '\\' {
				j++
			}
			dst = append(dst, d.data[i:j]...)
			i = j
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
	data := d.data
	start := d.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i++
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		d.pos = i
		d.syntax("invalid number")
		return nil, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		j := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == j {
			d.pos = i
			d.syntax("invalid number")
			return nil, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == j {
			d.pos = i
			d.syntax("invalid number")
			return nil, false
		}
	}
	d.pos = i
	return data[start:i], true
}

// integer returns the value of lit, a valid JSON number literal, when it is an
// integer: its sign and magnitude, exactly (5.0, 1e3 and 12.5e1 are integers).
// integral is false for a number with a fractional part; overflow is true for
// an integer whose magnitude does not fit in a uint64.
func integer(lit []byte) (neg bool, mag uint64, integral, overflow bool) {
	i := 0
	if lit[0] == '-' {
		neg = true
		i++
	}
	// Fast path: plain digits that cannot overflow.
	if n := len(lit) - i; n <= 19 {
		var m uint64
		j := i
		for ; j < len(lit) && lit[j] >= '0' && lit[j] <= '9'; j++ {
			m = m*10 + uint64(lit[j]-'0')
		}
		if j == len(lit) {
			return neg, m, true, false
		}
	}
	// The digits of the integer and fractional parts, and the exponent.
	intStart := i
	for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
		i++
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < len(lit) && lit[i] == '.' {
		i++
		fracStart = i
		for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
			i++
		}
		fracEnd = i
	}
	exp := 0
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		expNeg := false
		if lit[i] == '+' || lit[i] == '-' {
			expNeg = lit[i] == '-'
			i++
		}
		for ; i < len(lit); i++ {
			if exp < 1e9 { // beyond, the value overflows or is not an integer anyway
				exp = exp*10 + int(lit[i]-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	// digit(k) is the k-th digit of the integer part followed by the fraction.
	nInt, nFrac := intEnd-intStart, fracEnd-fracStart
	digit := func(k int) byte {
		if k < nInt {
			return lit[intStart+k]
		}
		return lit[fracStart+k-nInt]
	}
	first, last := 0, nInt+nFrac // the significant digits: [first, last)
	for first < last && digit(first) == '0' {
		first++
	}
	if first == last {
		return neg, 0, true, false // zero
	}
	for digit(last-1) == '0' {
		last--
	}
	// The value is digits[first:last] × 10^e10.
	e10 := exp - nFrac + (nInt + nFrac - last)
	if e10 < 0 {
		return neg, 0, false, false
	}
	if last-first+e10 > 20 {
		return neg, 0, true, true
	}
	for k := first; k < last+e10; k++ {
		c := uint64(0)
		if k < last {
			c = uint64(digit(k) - '0')
		}
		if mag > (math.MaxUint64-c)/10 {
			return neg, 0, true, true
		}
		mag = mag*10 + c
	}
	return neg, mag, true, false
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
	neg, mag, integral, overflow := integer(lit)
	switch {
	case !integral:
		d.Invalid("got " + string(lit) + ", want integer")
		return 0, false
	case !overflow && !neg && mag <= math.MaxInt64:
		return int64(mag), true
	case !overflow && neg && mag <= 1<<63:
		return int64(-mag), true
	}
	d.Invalid("got " + string(lit) + ", want an integer within the range of int64")
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
	neg, mag, integral, overflow := integer(lit)
	switch {
	case !integral:
		d.Invalid("got " + string(lit) + ", want integer")
		return 0, false
	case !overflow && (!neg || mag == 0):
		return mag, true
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

// Float32 reads a number that a float32 can hold (a C float): one that
// rounds to a finite float32 (so float32's largest value, written in its
// shortest form 3.4028235e+38, which is a little above it, is accepted);
// precision is rounded as a conversion rounds it.
func (d *Decoder) Float32() (float64, bool) {
	start := d.pos
	f, ok := d.Float()
	if ok && math.IsInf(float64(float32(f)), 0) {
		d.Invalid("got " + strings.TrimSpace(string(d.data[start:d.pos])) + ", want a number within the range of float32")
		return 0, false
	}
	return f, ok
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
