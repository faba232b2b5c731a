package emit

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The equivalent OpenTool document is written by one pass over the model, in
// linear time. json.Marshal writes the same bytes, but document.Schemas has its
// own MarshalJSON, whose result encoding/json checks and compacts again at
// every level: quadratic in the depth of nesting (2,000 nested properties
// took seconds).

// MarshalDocument returns the compact JSON encoding of doc, byte for byte
// what json.Marshal returns. Strings are encoded in pieces of jsonPiece
// bytes.
func MarshalDocument(doc *document.OpenTool) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeDocValue(&b, reflect.ValueOf(doc)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var (
	schemasType       = reflect.TypeFor[document.Schemas]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodeDocValue writes v as json.Marshal would: structs of the document
// model, pointers, slices and maps member by member, document.Schemas as an
// object in order, strings, booleans and integers as encoding/json writes
// them, everything else (floats, raw messages, enum values, slices of
// leaves) with json.Marshal itself.
func encodeDocValue(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	switch {
	case t == schemasType:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('{')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			m := v.Index(i).Addr().Interface().(*document.NamedSchema)
			if err := encodeJSONString(b, m.Name); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := encodeDocValue(b, reflect.ValueOf(m.Schema)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case t.Implements(marshalerType):
		return encodeLeaf(b, v.Interface())
	case t.Kind() == reflect.String && !t.Implements(textMarshalerType):
		return encodeJSONString(b, v.String())
	}
	switch t.Kind() {
	case reflect.Bool:
		if !t.Implements(textMarshalerType) {
			b.WriteString(strconv.FormatBool(v.Bool()))
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !t.Implements(textMarshalerType) {
			b.Write(strconv.AppendInt(b.AvailableBuffer(), v.Int(), 10))
			return nil
		}
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeDocValue(b, v.Elem())
	case reflect.Struct:
		return encodeDocStruct(b, v)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 || !composite(t.Elem()) {
			return encodeLeaf(b, v.Interface())
		}
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeDocValue(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String || !composite(t.Elem()) {
			return encodeLeaf(b, v.Interface())
		}
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeLeaf(b, k.String()); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := encodeDocValue(b, v.MapIndex(k)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	return encodeLeaf(b, v.Interface())
}

// composite reports whether values of t may hold schemas: they are written
// member by member rather than by json.Marshal.
func composite(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t == schemasType || t.Kind() == reflect.Struct && t.PkgPath() == schemasType.PkgPath()
}

func encodeLeaf(b *bytes.Buffer, v any) error {
	q, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(q)
	return nil
}

// errDocField is a field of the document model that encodeDocStruct does not
// know how to write (an embedded struct, an unknown tag option).
var errDocField = errors.New("opentoolgen: internal error: the document model has a field marshalDocument cannot write")

// docField is a field of a struct of the document model as encodeDocStruct
// writes it: its index, its JSON key (quoted, with the colon) and when it is
// left out.
type docField struct {
	index int
	key   []byte
	omit  int // 0 never, omitEmpty or omitZero
}

const (
	omitEmpty = 1 + iota
	omitZero
)

// docFields caches the fields of each struct type of the document model
// ([]docField): reading struct tags for every value of a large document
// cost more than writing it.
var docFields sync.Map

// fieldsOf returns the fields encodeDocStruct writes of struct type t.
func fieldsOf(t reflect.Type) ([]docField, error) {
	if fs, ok := docFields.Load(t); ok {
		return fs.([]docField), nil
	}
	var fs []docField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		if sf.Anonymous {
			return nil, errDocField
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := docField{index: i}
		switch opts {
		case "":
		case "omitempty":
			f.omit = omitEmpty
		case "omitzero":
			f.omit = omitZero
		default:
			return nil, errDocField
		}
		q, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		f.key = append(q, ':')
		fs = append(fs, f)
	}
	docFields.Store(t, fs)
	return fs, nil
}

func encodeDocStruct(b *bytes.Buffer, v reflect.Value) error {
	fs, err := fieldsOf(v.Type())
	if err != nil {
		return err
	}
	b.WriteByte('{')
	first := true
	for _, f := range fs {
		fv := v.Field(f.index)
		switch f.omit {
		case omitEmpty:
			if emptyValue(fv) {
				continue
			}
		case omitZero:
			if fv.IsZero() {
				continue
			}
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(f.key)
		if err := encodeDocValue(b, fv); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// emptyValue is encoding/json's notion of empty, for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// jsonPiece is the size of the pieces a large string is encoded in.
const jsonPiece = 64 << 10

// encodeJSONString appends s as json.Marshal encodes a string: as it is
// when it holds only printable ASCII that encoding/json does not escape
// (most names and descriptions), else in pieces (encoding/json escapes rune
// by rune), so that a large description is not encoded into a buffer of its
// own first.
func encodeJSONString(b *bytes.Buffer, s string) error {
	if plainJSON(s) {
		b.Grow(len(s) + 2)
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return nil
	}
	b.WriteByte('"')
	for len(s) > 0 {
		n := len(s)
		if n > jsonPiece {
			n = jsonPiece
			for k := 0; k < utf8.UTFMax && !utf8.RuneStart(s[n]); k++ {
				n--
			}
		}
		q, err := json.Marshal(s[:n])
		if err != nil {
			return err
		}
		b.Write(q[1 : len(q)-1])
		s = s[n:]
	}
	b.WriteByte('"')
	return nil
}

// plainJSON reports whether encoding/json writes s between quotes as it is:
// printable ASCII without the characters it escapes (", \ and, for HTML,
// <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= utf8.RuneSelf, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// maxIndentedDocument is the size up to which documents are indented (to be
// read and diffed) whatever their shape.
const maxIndentedDocument = 256 << 10

// maxIndentedResult is the size of compact JSON beyond which Result.Document
// stays compact: indenting it would take one more copy of a document of tens
// of megabytes.
const maxIndentedResult = 16 << 20

// ResultDocument is Result.Document for the compact JSON of the document,
// with a final newline: indented up to maxIndentedDocument, or when the
// document is at most maxIndentedResult and indenting makes it at most
// maxDocumentIndentRatio times larger; else compact.
func ResultDocument(compact []byte) []byte {
	n := IndentedSize(compact)
	if n <= maxIndentedDocument || len(compact) <= maxIndentedResult && n <= maxDocumentIndentRatio*len(compact) {
		return append(appendIndented(make([]byte, 0, n+1), compact), '\n')
	}
	out := make([]byte, len(compact)+1)
	copy(out, compact)
	out[len(compact)] = '\n'
	return out
}

// appendIndented appends compact JSON (as MarshalDocument writes it: valid,
// without white space) indented as json.Indent indents it with two spaces,
// in one pass and without validating it again; IndentedSize is its length.
func appendIndented(dst, compact []byte) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(compact) && compact[j] != '"'; j++ {
				if compact[j] == '\\' {
					j++
				}
			}
			dst = append(dst, compact[i:j+1]...)
			i = j
		case '{', '[':
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				dst = append(dst, c, compact[i+1]) // empty: written as is
				i++
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// IndentedSize is the size of compact JSON once indented by json.Indent with
// two spaces, without writing it.
func IndentedSize(compact []byte) int {
	n := len(compact)
	depth := 0
	inString := false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				// empty: written as is
				depth--
				i++
				continue
			}
			n += 1 + 2*depth
		case '}', ']':
			depth--
			n += 1 + 2*depth
		case ',':
			n += 1 + 2*depth
		case ':':
			n++
		}
	}
	return n
}

// maxDocumentIndentRatio bounds the growth indentation may cause to
// Result.Document (see there).
const maxDocumentIndentRatio = 4
