package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime/civil"
)

// Parameter values serialised per OpenAPI style and explode, form and
// multipart bodies, and escaping.

const (
	pvNull = iota
	pvScalar
	pvList
	pvObject
)

// JSONContent wraps the value of a parameter the document declares with a
// JSON media type ("content": {"application/json": …}) instead of a schema:
// Path, Query, Header and Cookie send its JSON text as one value, escaped as
// the parameter's place needs ({"a":1} in a query is %7B%22a%22%3A1%7D). A
// nil pointer is sent as null.
func JSONContent(v any) any { return jsonContent{v} }

type jsonContent struct{ v any }

// paramValue is a parameter value reduced to what OpenAPI serialisation knows:
// a scalar, a list of scalars or an object of scalars (in order).
type paramValue struct {
	kind   int
	scalar string
	list   []string
	obj    [][2]string
}

// paramValueOf reduces v. Scalars are formatted as in JSON (strings without
// quotes); arrays and objects by their JSON encoding, nested values as JSON.
func paramValueOf(v any) (paramValue, error) {
	switch x := v.(type) {
	case nil:
		return paramValue{}, nil
	case jsonContent:
		b, err := json.Marshal(x.v)
		if err != nil {
			return paramValue{}, err
		}
		return paramValue{kind: pvScalar, scalar: string(b)}, nil
	case string:
		return paramValue{kind: pvScalar, scalar: x}, nil
	case bool:
		return paramValue{kind: pvScalar, scalar: strconv.FormatBool(x)}, nil
	case int64:
		return paramValue{kind: pvScalar, scalar: strconv.FormatInt(x, 10)}, nil
	case int:
		return paramValue{kind: pvScalar, scalar: strconv.Itoa(x)}, nil
	case int32:
		return paramValue{kind: pvScalar, scalar: strconv.FormatInt(int64(x), 10)}, nil
	case float64:
		return paramValue{kind: pvScalar, scalar: strconv.FormatFloat(x, 'g', -1, 64)}, nil
	case time.Time:
		return paramValue{kind: pvScalar, scalar: x.Format(time.RFC3339Nano)}, nil
	case civil.Date:
		b, err := x.MarshalText() // YYYY-MM-DD
		return paramValue{kind: pvScalar, scalar: string(b)}, err
	case *civil.Date:
		if x == nil {
			return paramValue{}, nil
		}
		return paramValueOf(*x)
	case json.RawMessage:
		return paramValueJSON(x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return paramValue{}, nil
		}
		if _, ok := v.(json.Marshaler); !ok {
			return paramValueOf(rv.Elem().Interface())
		}
	case reflect.String:
		if _, ok := v.(json.Marshaler); !ok {
			return paramValue{kind: pvScalar, scalar: rv.String()}, nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return paramValue{kind: pvScalar, scalar: strconv.FormatInt(rv.Int(), 10)}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return paramValue{kind: pvScalar, scalar: strconv.FormatUint(rv.Uint(), 10)}, nil
	case reflect.Float32:
		return paramValue{kind: pvScalar, scalar: strconv.FormatFloat(rv.Float(), 'g', -1, 32)}, nil
	case reflect.Float64:
		return paramValue{kind: pvScalar, scalar: strconv.FormatFloat(rv.Float(), 'g', -1, 64)}, nil
	case reflect.Bool:
		return paramValue{kind: pvScalar, scalar: strconv.FormatBool(rv.Bool())}, nil
	case reflect.Slice, reflect.Map:
		// null, as json.Marshal would say, without marshalling
		if _, ok := v.(json.Marshaler); !ok && rv.IsNil() {
			return paramValue{}, nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return paramValue{}, err
	}
	return paramValueJSON(b)
}

func paramValueJSON(b []byte) (paramValue, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return paramValue{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		pv := paramValue{kind: pvList}
		if t == '{' {
			pv.kind = pvObject
		}
		for dec.More() {
			var key string
			if pv.kind == pvObject {
				k, err := dec.Token()
				if err != nil {
					return paramValue{}, err
				}
				key, _ = k.(string)
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return paramValue{}, err
			}
			s, null := scalarText(raw)
			if null {
				continue
			}
			if pv.kind == pvObject {
				pv.obj = append(pv.obj, [2]string{key, s})
			} else {
				pv.list = append(pv.list, s)
			}
		}
		if pv.kind == pvList && pv.list == nil {
			pv.list = []string{}
		}
		return pv, nil
	case nil:
		return paramValue{}, nil
	case string:
		return paramValue{kind: pvScalar, scalar: t}, nil
	case json.Number:
		return paramValue{kind: pvScalar, scalar: t.String()}, nil
	case bool:
		return paramValue{kind: pvScalar, scalar: strconv.FormatBool(t)}, nil
	}
	return paramValue{}, fmt.Errorf("unexpected JSON token %v", tok)
}

// scalarText is the text of a JSON value inside an array or object parameter:
// a string without quotes, other scalars as written, nested values as JSON.
func scalarText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		return "", true
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, false
		}
	}
	return string(raw), false
}

func identity(s string) string { return s }

// serializeSimple renders a value in style simple (path, header): a,b,c and
// k,v,k2,v2 (k=v,k2=v2 exploded), each piece escaped with esc.
func serializeSimple(pv paramValue, explode bool, esc func(string) string) string {
	switch pv.kind {
	case pvScalar:
		return esc(pv.scalar)
	case pvList:
		parts := make([]string, len(pv.list))
		for i, s := range pv.list {
			parts[i] = esc(s)
		}
		return strings.Join(parts, ",")
	case pvObject:
		var parts []string
		for _, kv := range pv.obj {
			if explode {
				parts = append(parts, esc(kv[0])+"="+esc(kv[1]))
			} else {
				parts = append(parts, esc(kv[0]), esc(kv[1]))
			}
		}
		return strings.Join(parts, ",")
	}
	return ""
}

func serializePath(name string, pv paramValue, ser serialization) string {
	esc, explode := escapePath, ser.explode
	switch ser.style {
	case Label:
		if pv.kind == pvNull {
			return "."
		}
		if !explode || pv.kind == pvScalar {
			return "." + serializeSimple(pv, false, esc)
		}
		var parts []string
		if pv.kind == pvList {
			for _, s := range pv.list {
				parts = append(parts, esc(s))
			}
		} else {
			for _, kv := range pv.obj {
				parts = append(parts, esc(kv[0])+"="+esc(kv[1]))
			}
		}
		return "." + strings.Join(parts, ".")
	case Matrix:
		n := esc(name)
		switch {
		case pv.kind == pvNull:
			return ";" + n
		case pv.kind == pvScalar || !explode:
			return ";" + n + "=" + serializeSimple(pv, false, esc)
		case pv.kind == pvList:
			var b strings.Builder
			for _, s := range pv.list {
				b.WriteString(";" + n + "=" + esc(s))
			}
			return b.String()
		default:
			var b strings.Builder
			for _, kv := range pv.obj {
				b.WriteString(";" + esc(kv[0]) + "=" + esc(kv[1]))
			}
			return b.String()
		}
	}
	return serializeSimple(pv, explode, esc)
}

// Query is a query string (or an application/x-www-form-urlencoded body)
// built in order.
type Query struct {
	b   strings.Builder
	err error
}

// NewForm returns an empty form body.
func NewForm() *Query { return &Query{} }

func (q *Query) pair(name, value string) {
	if q.b.Len() > 0 {
		q.b.WriteByte('&')
	}
	q.b.WriteString(escapeQuery(name, false))
	q.b.WriteByte('=')
	q.b.WriteString(value)
}

// Add adds the parameter (or form field) name with value v, serialised as
// styles say (Form, SpaceDelimited, PipeDelimited, DeepObject; Explode,
// NoExplode, AllowReserved), form and exploded by default. A nil v (nil, or
// a nil pointer, slice or map) adds nothing.
func (q *Query) Add(name string, v any, styles ...Style) error {
	ser, err := queryPlace.serializationOf(name, styles)
	if err == nil {
		err = q.add(name, v, ser)
	}
	if err != nil && q.err == nil {
		q.err = err
	}
	return err
}

func (q *Query) add(name string, v any, ser serialization) error {
	pv, err := paramValueOf(v)
	if err != nil {
		return fmt.Errorf("query parameter %s: %w", strconv.Quote(name), err)
	}
	esc := func(s string) string { return escapeQuery(s, ser.allowReserved) }
	sep := ","
	switch ser.style {
	case SpaceDelimited:
		sep = "%20"
	case PipeDelimited:
		sep = "|"
	}
	switch pv.kind {
	case pvNull:
		return nil
	case pvScalar:
		q.pair(name, esc(pv.scalar))
	case pvList:
		if ser.explode && ser.style != DeepObject {
			for _, s := range pv.list {
				q.pair(name, esc(s))
			}
			return nil
		}
		parts := make([]string, len(pv.list))
		for i, s := range pv.list {
			parts[i] = esc(s)
		}
		q.pair(name, strings.Join(parts, sep))
	case pvObject:
		switch {
		case ser.style == DeepObject:
			for _, kv := range pv.obj {
				if q.b.Len() > 0 {
					q.b.WriteByte('&')
				}
				q.b.WriteString(escapeQuery(name, false) + "%5B" + escapeQuery(kv[0], false) + "%5D=" + esc(kv[1]))
			}
		case ser.explode:
			for _, kv := range pv.obj {
				q.pair(kv[0], esc(kv[1]))
			}
		default:
			var parts []string
			for _, kv := range pv.obj {
				parts = append(parts, esc(kv[0]), esc(kv[1]))
			}
			q.pair(name, strings.Join(parts, sep))
		}
	}
	return nil
}

// Encode returns the query string, without "?".
func (q *Query) Encode() string { return q.b.String() }

// Multipart is a multipart/form-data body being built.
type Multipart struct {
	buf bytes.Buffer
	w   *multipart.Writer
	err error
}

// NewMultipart returns an empty multipart body.
func NewMultipart() *Multipart {
	m := &Multipart{}
	m.w = multipart.NewWriter(&m.buf)
	return m
}

// Field adds a part named name: strings and other scalars as text, arrays as
// one part per element, objects as JSON (or with the given content type).
func (m *Multipart) Field(name string, v any, contentType string) {
	if m.err != nil {
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		m.err = fmt.Errorf("multipart field %s: %w", strconv.Quote(name), err)
		return
	}
	write := func(s, ct string) {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+escapeQuotes(name)+`"`)
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		w, err := m.w.CreatePart(h)
		if err == nil {
			_, err = io.WriteString(w, s)
		}
		if err != nil && m.err == nil {
			m.err = err
		}
	}
	switch pv.kind {
	case pvNull:
	case pvScalar:
		write(pv.scalar, contentType)
	case pvList:
		for _, s := range pv.list {
			write(s, contentType)
		}
	case pvObject:
		b, err := json.Marshal(v)
		if err != nil {
			m.err = err
			return
		}
		if contentType == "" {
			contentType = "application/json"
		}
		write(string(b), contentType)
	}
}

// File adds a file part named name with the given content.
func (m *Multipart) File(name, filename string, data []byte, contentType string) {
	if m.err != nil {
		return
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="`+escapeQuotes(name)+`"; filename="`+escapeQuotes(filename)+`"`)
	h.Set("Content-Type", contentType)
	w, err := m.w.CreatePart(h)
	if err == nil {
		_, err = w.Write(data)
	}
	if err != nil {
		m.err = err
	}
}

func escapeQuotes(s string) string {
	return strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A").Replace(s)
}

// Escaping.

const upperhex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func percentEncode(s string, keep func(byte) bool) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !keep(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if keep(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', upperhex[c>>4], upperhex[c&15])
		}
	}
	return string(b)
}

// escapePath escapes a path parameter value: everything but the unreserved
// characters of RFC 3986, so that a value never adds a path segment.
func escapePath(s string) string { return percentEncode(s, isUnreserved) }

// escapeQuery escapes a query name or value; with allowReserved, the reserved
// characters of RFC 3986 that do not delimit query parameters stay as they are.
func escapeQuery(s string, allowReserved bool) string {
	if allowReserved {
		return percentEncode(s, func(c byte) bool {
			return isUnreserved(c) || strings.IndexByte(":/?[]@!$'()*,;", c) >= 0
		})
	}
	return percentEncode(s, isUnreserved)
}

// escapeCookie escapes what a cookie value cannot hold (RFC 6265 cookie-octet),
// and the percent sign.
func escapeCookie(s string) string {
	return percentEncode(s, func(c byte) bool {
		return c == 0x21 || c >= 0x23 && c <= 0x2B && c != '%' || c >= 0x2D && c <= 0x3A || c >= 0x3C && c <= 0x5B || c >= 0x5D && c <= 0x7E
	})
}
