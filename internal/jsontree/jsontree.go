// Package jsontree parses JSON into a tree that keeps the order of object
// members and the byte offset of every value and key, so that a loader can walk
// a document in order and report problems at their place.
//
// It accepts exactly what encoding/json accepts (RFC 8259, strings decoded the
// same way, including invalid UTF-8 and lone surrogates becoming U+FFFD, and the
// same nesting limit), except that an object with two members of the same name
// is an error.
package jsontree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a [Node].
type Kind uint8

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String returns the JSON Schema name of the kind: "null", "boolean", "number",
// "string", "array" or "object".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is one JSON value.
type Node struct {
	Kind   Kind
	Offset int64 // byte offset of the value's first byte
	End    int64 // byte offset just past the value's last byte
	// Str is the decoded value of a string, or the literal of a number as it
	// appears in the input (usable as a json.Number).
	Str     string
	Bool    bool
	Items   []*Node  // the elements of an array
	Members []Member // the members of an object, in input order
}

// Member is one member of an object.
type Member struct {
	Key       string // decoded
	KeyOffset int64  // byte offset of the key's opening quote
	Value     *Node
}

// KindName returns the name of n's kind for messages ("null", "boolean",
// "number", "string", "array", "object").
func (n *Node) KindName() string { return n.Kind.String() }

// Get returns the value of the member key of object n; nil if n is nil, not an
// object, or has no such member.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// Find resolves the RFC 6901 JSON pointer ptr relative to n: "" is n itself,
// "/a/0" the first element of n's member a. It returns nil when the pointer is
// malformed or names nothing.
func (n *Node) Find(ptr string) *Node {
	if ptr == "" {
		return n
	}
	if ptr[0] != '/' {
		return nil
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		if n == nil {
			return nil
		}
		tok, ok := unescapeToken(tok)
		if !ok {
			return nil
		}
		switch n.Kind {
		case Object:
			n = n.Get(tok)
		case Array:
			i, ok := arrayIndex(tok)
			if !ok || i >= len(n.Items) {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
	}
	return n
}

func unescapeToken(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(tok) {
			return "", false
		}
		i++
		switch tok[i] {
		case '0':
			b.WriteByte('~')
		case '1':
			b.WriteByte('/')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// arrayIndex parses an RFC 6901 array index: "0" or a decimal without leading zeros.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	i := 0
	for j := 0; j < len(tok); j++ {
		c := tok[j]
		if c < '0' || c > '9' || i > (1<<31)/10 {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, true
}

// Pointer returns the RFC 6901 JSON pointer made of tokens ("~" and "/" escaped
// as "~0" and "~1"); "" for no tokens. Pointer(a...) + Pointer(b...) is
// Pointer(a..., b...).
func Pointer(tokens ...string) string {
	var b []byte
	for _, t := range tokens {
		b = AppendToken(b, t)
	}
	return string(b)
}

// AppendToken appends "/" and the escaped token tok to the JSON pointer ptr.
func AppendToken(ptr []byte, tok string) []byte {
	ptr = append(ptr, '/')
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; c {
		case '~':
			ptr = append(ptr, '~', '0')
		case '/':
			ptr = append(ptr, '~', '1')
		default:
			ptr = append(ptr, c)
		}
	}
	return ptr
}

// LineCol returns the 1-based line and column of the byte at offset in data;
// the column counts bytes. Offsets outside data are clamped to it.
func LineCol(data []byte, offset int64) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	line, start := 1, 0
	for i, c := range data[:offset] {
		if c == '\n' {
			line++
			start = i + 1
		}
	}
	return line, int(offset) - start + 1
}

// Lines indexes the lines of a text, so that the line and column of many
// offsets are found without reading the text from its start each time (a
// document of one 20 MB line with thousands of warnings).
type Lines struct {
	starts []int64 // offsets of the lines after the first
	size   int64
}

// NewLines indexes the lines of data.
func NewLines(data []byte) *Lines {
	l := &Lines{size: int64(len(data))}
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		l.starts = append(l.starts, int64(i))
	}
	return l
}

// LineCol is [LineCol] of the indexed text.
func (l *Lines) LineCol(offset int64) (line, col int) {
	offset = max(0, min(offset, l.size))
	n, _ := slices.BinarySearch(l.starts, offset+1) // lines starting at or before offset
	start := int64(0)
	if n > 0 {
		start = l.starts[n-1]
	}
	return n + 1, int(offset-start) + 1
}

// SyntaxError is a reason data is not a JSON document Parse accepts.
type SyntaxError struct {
	Offset int64  // byte offset of the problem
	Msg    string // what is wrong
	// Path is the JSON pointer of the innermost value being read when the
	// problem was found; for a duplicate key, the pointer of the second member.
	Path string

	tokens []string // Path's tokens, innermost first, while unwinding
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("byte offset %d: %s", e.Offset, e.Msg)
}

// MaxDepth is the deepest nesting of arrays and objects Parse accepts; it is
// encoding/json's limit.
const MaxDepth = 10000

// Parse parses data, which must hold exactly one JSON value (with optional
// white space around it). Its error is a *[SyntaxError].
func Parse(data []byte) (*Node, error) {
	p := parser{data: data}
	n, err := p.parse()
	if err != nil {
		return nil, err
	}
	return n, nil
}

// Duplicate is a member of an object that an earlier member of the same
// name precedes (see [ParseLenient]).
type Duplicate struct {
	Path   string // JSON pointer of the member
	Offset int64  // byte offset of its key
	First  int64  // byte offset of the first member's key
}

// ParseLenient parses data as [Parse] does, but an object with several
// members of the same name is not an error: it has one member of that name,
// in the first one's place, with the last one's value and key offset, as
// encoding/json and JavaScript's JSON.parse read it. The members that came
// again are returned in the order of their keys (but for those inside a
// value that a later member replaced). Without them it costs what Parse
// does.
func ParseLenient(data []byte) (*Node, []Duplicate, error) {
	p := parser{data: data, lenient: true}
	n, err := p.parse()
	if err != nil {
		return nil, nil, err
	}
	if len(p.dups) == 0 {
		return n, nil, nil
	}
	return n, p.duplicates(n), nil
}

// dupAt is a duplicate as the parser meets it: the object, before its path
// is known.
type dupAt struct {
	obj           *Node
	key           string
	offset, first int64
}

// duplicates gives the duplicates met their paths, by one walk of the tree
// to the objects that hold them.
func (p *parser) duplicates(root *Node) []Duplicate {
	want := make(map[*Node]bool, len(p.dups))
	for _, d := range p.dups {
		want[d.obj] = true
	}
	paths := make(map[*Node]string, len(want))
	var walk func(n *Node, path []byte)
	walk = func(n *Node, path []byte) {
		if len(paths) == len(want) {
			return
		}
		if want[n] {
			paths[n] = string(path)
		}
		for i, it := range n.Items {
			walk(it, strconv.AppendInt(append(path, '/'), int64(i), 10))
		}
		for _, m := range n.Members {
			walk(m.Value, AppendToken(path, m.Key))
		}
	}
	walk(root, nil)
	var out []Duplicate
	for _, d := range p.dups {
		path, ok := paths[d.obj]
		if !ok {
			continue // inside a value that a later member replaced
		}
		out = append(out, Duplicate{Path: path + Pointer(d.key), Offset: d.offset, First: d.first})
	}
	return out
}

func (p *parser) parse() (*Node, *SyntaxError) {
	data := p.data
	p.skipWS()
	n, err := p.value()
	if err == nil {
		p.skipWS()
		if p.pos < len(data) {
			err = p.errorf("invalid character %s after top-level value", quoteChar(data[p.pos]))
		}
	}
	if err != nil {
		for i, j := 0, len(err.tokens)-1; i < j; i, j = i+1, j-1 {
			err.tokens[i], err.tokens[j] = err.tokens[j], err.tokens[i]
		}
		err.Path = Pointer(err.tokens...)
		err.tokens = nil
		return nil, err
	}
	return n, nil
}

type parser struct {
	lenient bool    // duplicate keys are kept (ParseLenient)
	dups    []dupAt // the duplicates met, when lenient
	data    []byte
	pos     int
	depth   int
	slab    []Node
	// Members and items of the objects and arrays being read, innermost last:
	// each gets one exactly sized slice when it ends.
	members []Member
	items   []*Node
	keys    map[string]string // object keys seen, to share their strings
}

func (p *parser) errorf(format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: int64(p.pos), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() *SyntaxError {
	return &SyntaxError{Offset: int64(len(p.data)), Msg: "unexpected end of JSON input"}
}

// node allocates a node; nodes come from slabs to keep allocations few.
func (p *parser) node(k Kind, off int) *Node {
	if len(p.slab) == 0 {
		size := 16
		if rest := (len(p.data) - p.pos) / 8; rest > size {
			size = min(rest, 1024)
		}
		p.slab = make([]Node, size)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind, n.Offset = k, int64(off)
	return n
}

func (p *parser) skipWS() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value at p.pos (white space already skipped).
func (p *parser) value() (*Node, *SyntaxError) {
	if p.pos >= len(p.data) {
		return nil, p.eof()
	}
	start := p.pos
	switch c := p.data[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		n := p.node(String, start)
		n.Str, n.End = s, int64(p.pos)
		return n, nil
	case 't', 'f', 'n':
		lit, k := "null", Null
		switch c {
		case 't':
			lit, k = "true", Bool
		case 'f':
			lit, k = "false", Bool
		}
		for i := 1; i < len(lit); i++ {
			p.pos = start + i
			if p.pos >= len(p.data) {
				return nil, p.eof()
			}
			if p.data[p.pos] != lit[i] {
				return nil, p.errorf("invalid character %s in literal %s (expecting %s)",
					quoteChar(p.data[p.pos]), lit, quoteChar(lit[i]))
			}
		}
		p.pos = start + len(lit)
		n := p.node(k, start)
		n.Bool, n.End = c == 't', int64(p.pos)
		return n, nil
	default:
		if c == '-' || c >= '0' && c <= '9' {
			if err := p.number(); err != nil {
				return nil, err
			}
			n := p.node(Number, start)
			n.Str, n.End = string(p.data[start:p.pos]), int64(p.pos)
			return n, nil
		}
		return nil, p.errorf("invalid character %s looking for beginning of value", quoteChar(c))
	}
}

func (p *parser) object() (*Node, *SyntaxError) {
	n := p.node(Object, p.pos)
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("exceeded max depth")
	}
	p.pos++
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		n.End = int64(p.pos)
		return n, nil
	}
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	var seen map[string]int // for large objects: the members' indexes
	for {
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		if p.data[p.pos] != '"' {
			return nil, p.errorf("invalid character %s looking for beginning of object key string", quoteChar(p.data[p.pos]))
		}
		keyOff := p.pos
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		dup := -1 // the index of the member of the same name
		if seen != nil {
			if i, ok := seen[key]; ok {
				dup = i
			} else {
				seen[key] = len(p.members) - base
			}
		} else {
			mine := p.members[base:]
			for i := range mine {
				if mine[i].Key == key {
					dup = i
					break
				}
			}
			if len(mine) == 16 && dup < 0 {
				seen = make(map[string]int, 32)
				for i := range mine {
					seen[mine[i].Key] = i
				}
				seen[key] = len(mine)
			}
		}
		if dup >= 0 && !p.lenient {
			return nil, &SyntaxError{Offset: int64(keyOff), Msg: "duplicate key " + strconv.Quote(key), tokens: []string{key}}
		}
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		if p.data[p.pos] != ':' {
			return nil, p.errorf("invalid character %s after object key", quoteChar(p.data[p.pos]))
		}
		p.pos++
		p.skipWS()
		v, err := p.value()
		if err != nil {
			err.tokens = append(err.tokens, key)
			return nil, err
		}
		if dup >= 0 { // lenient: the last value, in the first member's place
			first := &p.members[base+dup]
			p.dups = append(p.dups, dupAt{obj: n, key: key, offset: int64(keyOff), first: first.KeyOffset})
			first.Value, first.KeyOffset = v, int64(keyOff)
		} else {
			p.members = append(p.members, Member{Key: key, KeyOffset: int64(keyOff), Value: v})
		}
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipWS()
		case '}':
			p.pos++
			p.depth--
			n.End = int64(p.pos)
			n.Members = slices.Clone(p.members[base:])
			return n, nil
		default:
			return nil, p.errorf("invalid character %s after object key:value pair", quoteChar(p.data[p.pos]))
		}
	}
}

func (p *parser) array() (*Node, *SyntaxError) {
	n := p.node(Array, p.pos)
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("exceeded max depth")
	}
	p.pos++
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		n.End = int64(p.pos)
		return n, nil
	}
	base := len(p.items)
	defer func() { p.items = p.items[:base] }()
	for {
		v, err := p.value()
		if err != nil {
			err.tokens = append(err.tokens, strconv.Itoa(len(p.items)-base))
			return nil, err
		}
		p.items = append(p.items, v)
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipWS()
		case ']':
			p.pos++
			p.depth--
			n.End = int64(p.pos)
			n.Items = slices.Clone(p.items[base:])
			return n, nil
		default:
			return nil, p.errorf("invalid character %s after array element", quoteChar(p.data[p.pos]))
		}
	}
}

// number scans a number literal starting at p.pos.
func (p *parser) number() *SyntaxError {
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	if p.pos >= len(d) {
		return p.eof()
	}
	switch c := d[p.pos]; {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.pos++
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	default:
		return p.errorf("invalid character %s in numeric literal", quoteChar(c))
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if p.pos >= len(d) {
			return p.eof()
		}
		if c := d[p.pos]; c < '0' || c > '9' {
			return p.errorf("invalid character %s after decimal point in numeric literal", quoteChar(c))
		}
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(d) {
			return p.eof()
		}
		if c := d[p.pos]; c < '0' || c > '9' {
			return p.errorf("invalid character %s in exponent of numeric literal", quoteChar(c))
		}
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	}
	return nil
}

// key scans an object key. Keys repeat, so short ones are shared.
func (p *parser) key() (string, *SyntaxError) {
	raw, plain, err := p.scanString()
	switch {
	case err != nil:
		return "", err
	case !plain:
		return unquote(raw), nil
	case len(raw) > 32:
		return string(raw), nil
	}
	if k, ok := p.keys[string(raw)]; ok {
		return k, nil
	}
	k := string(raw)
	if p.keys == nil {
		p.keys = make(map[string]string)
	}
	if len(p.keys) < 1024 {
		p.keys[k] = k
	}
	return k, nil
}

// str scans the string starting at p.pos (a quote) and returns its value.
func (p *parser) str() (string, *SyntaxError) {
	raw, plain, err := p.scanString()
	switch {
	case err != nil:
		return "", err
	case plain:
		return string(raw), nil
	}
	return unquote(raw), nil
}

// scanString scans the string starting at p.pos (a quote) and returns what is
// between the quotes; plain reports that it is the string's value (no escapes,
// valid UTF-8).
func (p *parser) scanString() (raw []byte, plain bool, err *SyntaxError) {
	d := p.data
	start := p.pos + 1
	escaped, ascii := false, true
	i := start
	for {
		if i >= len(d) {
			return nil, false, p.eof()
		}
		c := d[i]
		switch {
		case c == '"':
			raw := d[start:i]
			p.pos = i + 1
			return raw, !escaped && (ascii || utf8.Valid(raw)), nil
		case c == '\\':
			escaped = true
			i++
			if i >= len(d) {
				return nil, false, p.eof()
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for j := 0; j < 4; j++ {
					if i >= len(d) {
						return nil, false, p.eof()
					}
					if !isHex(d[i]) {
						p.pos = i
						return nil, false, p.errorf("invalid character %s in \\u hexadecimal character escape", quoteChar(d[i]))
					}
					i++
				}
			default:
				p.pos = i
				return nil, false, p.errorf("invalid character %s in string escape code", quoteChar(d[i]))
			}
		case c < 0x20:
			p.pos = i
			return nil, false, p.errorf("invalid character %s in string literal", quoteChar(c))
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			i++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unquote decodes the contents of a string already checked by str, the way
// encoding/json does: invalid UTF-8 and unpaired surrogates become U+FFFD.
func unquote(s []byte) string {
	// A strings.Builder hands out its bytes without copying them: a string of
	// 50 MB takes 50 MB, not twice that for a moment.
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r := hexVal(s[i+1:])
				i += 5
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hexVal(s[i+2:])); dec != utf8.RuneError {
							b.WriteRune(dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b.WriteRune(r)
				continue
			default: // '"', '\\', '/'
				b.WriteByte(s[i])
			}
			i++
		case c < utf8.RuneSelf:
			// a run of plain ASCII at once
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && s[j] != '\\' {
				j++
			}
			b.Write(s[i:j])
			i = j
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.Write(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

// quoteChar formats c for an error message as encoding/json does.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// AppendJSON appends n as compact JSON to b: members in order, numbers as
// written.
func AppendJSON(b []byte, n *Node) []byte {
	switch n.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, n.Bool)
	case Number:
		return append(b, n.Str...)
	case String:
		return appendString(b, n.Str)
	case Array:
		b = append(b, '[')
		for i, it := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSON(b, it)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, m := range n.Members {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m.Key)
		b = append(b, ':')
		b = AppendJSON(b, m.Value)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string, as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// Decimal returns the value of the JSON number literal lit exactly, as
// digits × 10^exp with no leading or trailing zeros in digits ("0" for zero,
// with exp 0). It returns ok false if lit is not a number literal or its
// exponent is out of range.
func Decimal(lit string) (digits string, exp int64, ok bool) {
	neg := strings.HasPrefix(lit, "-")
	if neg {
		lit = lit[1:]
	}
	mant, expPart, hasExp := strings.Cut(strings.ToLower(lit), "e")
	if hasExp {
		e, err := strconv.ParseInt(strings.TrimPrefix(expPart, "+"), 10, 64)
		if err != nil || e > 1<<40 || e < -(1<<40) {
			return "", 0, false
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" {
		return "", 0, false
	}
	d := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(d, "0")
	exp += int64(len(d) - len(trimmed))
	if trimmed == "" {
		return "0", 0, true
	}
	if neg {
		trimmed = "-" + trimmed
	}
	return trimmed, exp, true
}
