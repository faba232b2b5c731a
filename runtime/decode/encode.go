package decode

import (
	"bytes"
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
)

// EncodeResult encodes a scalar or array return value v named name as the
// result object {"name": v}.
func EncodeResult(name string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(name) + len(b) + 5)
	buf.WriteByte('{')
	jsonrpc.WriteString(&buf, name)
	buf.WriteByte(':')
	buf.Write(b)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// EncodeObject encodes an object return value v as the result object itself; a
// nil map or pointer becomes {}.
func EncodeObject(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return emptyObject, nil
	}
	return b, nil
}

// Unmarshal decodes data into *v with a generated decoder fn, checking types as
// [Value] does; generated UnmarshalJSON methods use it. It returns the
// -32602 *Error listing every violation.
func Unmarshal[T any](data []byte, v *T, fn func(*Decoder, *T)) error {
	if len(data) == 0 || jsonrpc.IsNull(data) {
		return nil
	}
	return Value(data, v, fn)
}

// ObjectEncoder writes a JSON object member by member, in order. Generated
// MarshalJSON methods use it for member names a struct tag cannot carry.
type ObjectEncoder struct {
	buf bytes.Buffer
	err error
}

// Field writes the member name: v.
func (e *ObjectEncoder) Field(name string, v any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	if e.buf.Len() == 0 {
		e.buf.WriteByte('{')
	} else {
		e.buf.WriteByte(',')
	}
	jsonrpc.WriteString(&e.buf, name)
	e.buf.WriteByte(':')
	e.buf.Write(b)
}

// Bytes returns the object.
func (e *ObjectEncoder) Bytes() ([]byte, error) {
	if e.err != nil {
		return nil, e.err
	}
	if e.buf.Len() == 0 {
		return []byte("{}"), nil
	}
	e.buf.WriteByte('}')
	return e.buf.Bytes(), nil
}
