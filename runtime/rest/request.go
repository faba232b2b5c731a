package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
)

// Building a request: its parameters, credentials, body and URL.

// Request is one request being built by a generated client method. Its
// methods record the first error, which Send returns.
type Request struct {
	c        *Client
	method   string
	path     string
	pathVals []string // name, value pairs
	query    Query
	// querystring is the query string QueryString set, encoded; the
	// parameters of query follow it.
	querystring string
	header      http.Header
	cookies     []string
	body        []byte
	bodyType    string
	// contentType overrides bodyType for a body that was sent.
	contentType string
	security    [][]string
	err         error
	// idempotency is the header of the request's idempotency key
	// (Idempotency), "" for none.
	idempotency string

	// The operation's own server (Server).
	server         string
	serverDefaults []string

	// The members of an object body, sent as JSON, form or multipart.
	fields    []bodyField
	form      *Query
	multipart *Multipart

	// secrets are the credential values the last round trip sent: an
	// error's body, as a tool answers it (WireBody), has them redacted.
	secrets []string
}

type bodyField struct {
	name string
	raw  json.RawMessage
}

func (r *Request) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Path sets the path parameter name to v, serialised as styles say (Simple,
// Label, Matrix; Explode, NoExplode), simple and not exploded by default.
func (r *Request) Path(name string, v any, styles ...Style) {
	ser, err := pathPlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("path parameter %s: %w", strconv.Quote(name), err))
		return
	}
	r.pathVals = append(r.pathVals, name, serializePath(name, pv, ser))
}

// Query adds the query parameter name with value v, serialised as styles say
// (Form, SpaceDelimited, PipeDelimited, DeepObject; Explode, NoExplode,
// AllowReserved), form and exploded by default. A nil v (nil, or a nil
// pointer, slice or map) adds nothing, so that generated code passes an
// optional argument as it is.
func (r *Request) Query(name string, v any, styles ...Style) {
	if err := r.query.Add(name, v, styles...); err != nil {
		r.fail(err)
	}
}

// Header sets the header parameter name to v, style simple, not exploded
// unless styles has Explode. A nil v (nil, or a nil pointer, slice or map)
// sets nothing.
func (r *Request) Header(name string, v any, styles ...Style) {
	ser, err := headerPlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("header %s: %w", strconv.Quote(name), err))
		return
	}
	if pv.kind == pvNull {
		return
	}
	s := serializeSimple(pv, ser.explode, identity)
	if strings.ContainsAny(s, "\r\n\x00") {
		r.fail(fmt.Errorf("header %s: the value contains a line break or NUL", strconv.Quote(name)))
		return
	}
	if r.header == nil {
		r.header = http.Header{}
	}
	r.header[textproto.CanonicalMIMEHeaderKey(name)] = []string{s}
}

// Cookie adds the cookie parameter name with value v, style form, exploded
// unless styles has NoExplode. A nil v (nil, or a nil pointer, slice or
// map) adds nothing.
func (r *Request) Cookie(name string, v any, styles ...Style) {
	ser, err := cookiePlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("cookie %s: %w", strconv.Quote(name), err))
		return
	}
	if pv.kind == pvNull {
		return
	}
	n := escapeCookie(name)
	switch {
	case pv.kind == pvList && ser.explode:
		for _, it := range pv.list {
			r.cookies = append(r.cookies, n+"="+escapeCookie(it))
		}
	case pv.kind == pvObject && ser.explode:
		for _, kv := range pv.obj {
			r.cookies = append(r.cookies, escapeCookie(kv[0])+"="+escapeCookie(kv[1]))
		}
	default:
		r.cookies = append(r.cookies, n+"="+serializeSimple(pv, false, escapeCookie))
	}
}

// Security adds a set of security schemes the operation accepts together
// (one call per alternative, in the document's order). The request carries
// the credentials of the first set the client has every credential of; an
// empty set means the operation may be called without credentials.
func (r *Request) Security(schemes ...string) { r.security = append(r.security, schemes) }

// Server sets the operation's own server: its URL template with the
// variables' defaults as name, value pairs. It is used unless the client was
// given a base URL; a variable the client set (SetServerVariable) keeps the
// client's value.
func (r *Request) Server(template string, defaults ...string) {
	r.server, r.serverDefaults = template, defaults
}

// credentials returns the credentials the request carries, with the names
// of their schemes: the context's ([WithCredentials]), else the client's.
func (r *Request) credentials(ctx context.Context) ([]Credential, []string) {
	perCall, _ := ctx.Value(credentialsKey{}).(map[string]Credential)
	for _, set := range r.security {
		var creds []Credential
		for _, s := range set {
			cr, ok := perCall[s]
			if !ok || cr.secret == nil {
				cr, ok = r.c.creds[s]
			}
			if !ok || cr.secret == nil { // the zero Credential is none
				creds = nil
				break
			}
			creds = append(creds, cr)
		}
		if len(creds) == len(set) {
			return creds, set
		}
	}
	return nil, nil
}

// JSONBody sends v encoded as JSON.
func (r *Request) JSONBody(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("request body: %w", err))
		return
	}
	r.body, r.bodyType = b, "application/json"
}

// ContentType sets the media type of the body (a JSON type other than
// application/json, such as application/merge-patch+json).
func (r *Request) ContentType(ct string) { r.contentType = ct }

// RawBody sends b as is with the given content type.
func (r *Request) RawBody(b []byte, contentType string) {
	if b == nil {
		b = []byte{}
	}
	r.body, r.bodyType = b, contentType
}

// FormBody sends the fields of f as application/x-www-form-urlencoded.
func (r *Request) FormBody(f *Query) {
	if f.err != nil {
		r.fail(f.err)
		return
	}
	r.body, r.bodyType = []byte(f.Encode()), "application/x-www-form-urlencoded"
}

// MultipartBody sends the parts of m as multipart/form-data.
func (r *Request) MultipartBody(m *Multipart) {
	if m.err != nil {
		r.fail(m.err)
		return
	}
	if err := m.w.Close(); err != nil {
		r.fail(err)
		return
	}
	r.body, r.bodyType = m.buf.Bytes(), m.w.FormDataContentType()
}

// BodyField adds the member name with value v to the JSON object body.
func (r *Request) BodyField(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("request body member %s: %w", strconv.Quote(name), err))
		return
	}
	r.fields = append(r.fields, bodyField{name, b})
}

// FormField adds the field name with value v to the form body
// (application/x-www-form-urlencoded), serialised like a query parameter
// (form and exploded by default).
func (r *Request) FormField(name string, v any, styles ...Style) {
	if r.form == nil {
		r.form = NewForm()
	}
	if err := r.form.Add(name, v, styles...); err != nil {
		r.fail(err)
	}
}

// PartField adds a part named name with value v to the multipart body.
func (r *Request) PartField(name string, v any, contentType string) {
	if r.multipart == nil {
		r.multipart = NewMultipart()
	}
	r.multipart.Field(name, v, contentType)
}

// PartFile adds a file part named name to the multipart body.
func (r *Request) PartFile(name string, data []byte, contentType string) {
	if r.multipart == nil {
		r.multipart = NewMultipart()
	}
	r.multipart.File(name, name, data, contentType)
}

// ObjectBody sends the members added with BodyField as a JSON object; when
// none was added, it sends {} if required and no body otherwise.
func (r *Request) ObjectBody(required bool) {
	if len(r.fields) == 0 && !required {
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r.fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.raw)
	}
	b.WriteByte('}')
	r.body, r.bodyType = b.Bytes(), "application/json"
}

// FormFields sends the fields added with FormField as the body; when none was
// added, it sends an empty form if required and no body otherwise.
func (r *Request) FormFields(required bool) {
	if r.form == nil {
		if !required {
			return
		}
		r.form = NewForm()
	}
	r.FormBody(r.form)
}

// Parts sends the parts added with PartField and PartFile as the body; when
// none was added, it sends an empty multipart body if required and no body
// otherwise.
func (r *Request) Parts(required bool) {
	if r.multipart == nil {
		if !required {
			return
		}
		r.multipart = NewMultipart()
	}
	r.MultipartBody(r.multipart)
}

// URL returns the URL of the request (for tests and request editors), with
// the client's credentials.
func (r *Request) URL() (string, error) {
	creds, _ := r.credentials(context.Background())
	return r.url(creds)
}

func (r *Request) url(creds []Credential) (string, error) {
	if r.err != nil {
		return "", r.err
	}
	path := r.path
	// A path template may end in a fragment, which is never sent: documents
	// converted from AWS's tell apart the operations of one path so
	// ("/#Action=DescribeInstances", the action also being a query
	// parameter). The query goes before it, not into it.
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	for i := 0; i+1 < len(r.pathVals); i += 2 {
		path = strings.ReplaceAll(path, "{"+r.pathVals[i]+"}", r.pathVals[i+1])
	}
	if i := strings.IndexByte(path, '{'); i >= 0 {
		if j := strings.IndexByte(path[i:], '}'); j > 0 {
			return "", fmt.Errorf("path parameter %s has no value", strconv.Quote(path[i+1:i+j]))
		}
	}
	base, err := r.baseURL()
	if err != nil {
		return "", err
	}
	u := strings.TrimRight(base, "/") + path
	q := r.query.Encode()
	if r.querystring != "" {
		if q != "" {
			q = r.querystring + "&" + q
		} else {
			q = r.querystring
		}
	}
	for _, cr := range creds {
		if cr.kind == "apiKey" && cr.in == "query" {
			if q != "" {
				q += "&"
			}
			q += escapeQuery(cr.name, false) + "=" + escapeQuery(cr.value, false)
		}
	}
	if q != "" {
		if strings.Contains(u, "?") {
			u += "&" + q
		} else {
			u += "?" + q
		}
	}
	return u, nil
}
