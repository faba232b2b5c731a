package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// QueryString sets the whole query string from v, an OpenAPI 3.2
// parameter "in": "querystring". v wrapped in [JSONContent] (a JSON media
// type) is sent as its JSON text, percent-encoded; any other v is sent as
// application/x-www-form-urlencoded: v encodes to a JSON object, and each of
// its members, in order, is a form field serialised as a query parameter is
// by default (form, exploded: an array repeats the name, an object's members
// are fields of their own; null members are left out). Query parameters
// added with Query follow it, after "&". A nil v sends nothing.
func (r *Request) QueryString(v any) {
	if jc, ok := v.(jsonContent); ok {
		b, err := json.Marshal(jc.v)
		if err != nil {
			r.fail(fmt.Errorf("query string: %w", err))
			return
		}
		r.querystring = escapeQuery(string(b), false)
		return
	}
	if v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("query string: %w", err))
		return
	}
	if bytes.Equal(b, []byte("null")) {
		return
	}
	var q Query
	if err := formMembers(b, &q); err != nil {
		r.fail(fmt.Errorf("query string: %w", err))
		return
	}
	r.querystring = q.Encode()
}

// formMembers adds each member of the JSON object b to q, in order.
func formMembers(b []byte, q *Query) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("a form is the members of an object, got %s", jsonKindOf(b))
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := q.Add(kt.(string), raw); err != nil {
			return err
		}
	}
	return nil
}

// jsonKindOf names the kind of the JSON value b for a message.
func jsonKindOf(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
