// Package prisme2e calls every operation of generated OpenAPI packages
// against Stoplight Prism, a mock that validates each request against the
// document (prism_test.go, opt-in: scripts/prism.sh). Exercise is what the
// generated driver program runs for each package.
package prisme2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
)

// Outcome is what became of one operation.
type Outcome struct {
	Doc       string `json:"doc"`
	Function  string `json:"function"`
	All       bool   `json:"all,omitempty"` // every argument given, not only the required ones
	Args      string `json:"args,omitempty"`
	Result    string `json:"result"` // ok, nomock, rejected, security, nosample, invalidargs, norequest, other
	Status    int    `json:"status,omitempty"`
	Violation string `json:"violation,omitempty"`
	Err       string `json:"err,omitempty"`
}

// Recorder is an http.RoundTripper that keeps the status and Prism's
// sl-violations header of the last response.
type Recorder struct {
	mu         sync.Mutex
	n          int
	status     int
	violations string
	body       string
}

// RoundTrip sends the request with http.DefaultTransport and records its answer.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.status, r.violations, r.body = 0, "", ""
	if err == nil {
		r.status = resp.StatusCode
		r.violations = resp.Header.Get("sl-violations")
		if resp.StatusCode >= 400 {
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			r.body = string(data)
			resp.Body = io.NopCloser(strings.NewReader(r.body))
		}
	}
	return resp, err
}

// Client returns an HTTP client sending through the recorder.
func (r *Recorder) Client() *http.Client { return &http.Client{Transport: r} }

// Auth returns a request editor that gives every request the credentials
// Prism checks for: an Authorization header (Basic when basic is true, else
// Bearer) and the API keys named in apiKeys ("header:X-Key", "query:key",
// "cookie:sid").
func Auth(basic bool, apiKeys ...string) rest.RequestEditor {
	return func(_ context.Context, req *http.Request) error {
		if basic {
			req.SetBasicAuth("user", "pass")
		} else {
			req.Header.Set("Authorization", "Bearer token")
		}
		for _, k := range apiKeys {
			in, name, _ := strings.Cut(k, ":")
			switch in {
			case "header":
				req.Header.Set(name, "key")
			case "query":
				q := req.URL.Query()
				q.Set(name, "key")
				req.URL.RawQuery = q.Encode()
			case "cookie":
				req.AddCookie(&http.Cookie{Name: name, Value: "key"})
			}
		}
		return nil
	}
}

// Exercise calls every function of tool with the required arguments of its
// declaration (declare.OpenAI) filled with sample values, and says what Prism
// made of each request.
func Exercise(ctx context.Context, docName string, tool runtime.Tool, rec *Recorder) ([]Outcome, error) {
	doc, err := tool.Load(ctx)
	if err != nil {
		return nil, err
	}
	var decls []decl
	// OpenAI takes at most 128 tools at once: declare them 100 at a time.
	for i := 0; i < len(doc.Functions); i += 100 {
		part := *doc
		part.Functions = doc.Functions[i:min(i+100, len(doc.Functions))]
		d, err := declare.Functions(&part, declare.OpenAI)
		if err != nil {
			return nil, err
		}
		var ds []decl
		if err := json.Unmarshal(d.Tools, &ds); err != nil {
			return nil, err
		}
		decls = append(decls, ds...)
	}
	var out []Outcome
	for _, call := range calls(decls) {
		decl, all := call.decl, call.all
		o := Outcome{Doc: docName, Function: decl.Function.Name, All: all}
		var s map[string]any
		if len(decl.Function.Parameters) > 0 {
			if err := json.Unmarshal(decl.Function.Parameters, &s); err != nil {
				return nil, err
			}
		}
		args := map[string]any{}
		if s != nil {
			g := &sampler{defs: asMap(s["$defs"]), all: all}
			v, ok := g.value(s)
			if !ok {
				o.Result = "nosample"
				out = append(out, o)
				continue
			}
			args, _ = v.(map[string]any)
		}
		raw, _ := json.Marshal(args)
		o.Args = string(raw)
		rec.mu.Lock()
		before := rec.n
		rec.mu.Unlock()
		_, err := tool.Call(ctx, decl.Function.Name, raw)
		rec.mu.Lock()
		n, status, viol, body := rec.n, rec.status, rec.violations, rec.body
		rec.mu.Unlock()
		o.Status = status
		if err != nil {
			o.Err = firstLine(err.Error())
		}
		problem := prismProblem(body)
		switch {
		case n == before:
			o.Result = "norequest"
			var e *runtime.Error
			if errors.As(err, &e) && e.Code == runtime.CodeInvalidParams {
				o.Result = "invalidargs"
			}
		case status == 401 || status == 403:
			o.Result = "security"
			o.Violation = body
		case requestError(viol) || requestError(problem.validation) ||
			strings.HasSuffix(problem.Type, "UNPROCESSABLE_ENTITY") || strings.Contains(problem.Type, "NO_PATH_MATCHED") ||
			strings.Contains(problem.Type, "NO_METHOD_MATCHED") || strings.HasSuffix(problem.Type, "INVALID_CONTENT_TYPE"):
			o.Result = "rejected"
			o.Violation = viol
			if o.Violation == "" {
				o.Violation = body
			}
		case strings.HasSuffix(problem.Type, "SCHEMA_TOO_COMPLEX"):
			// Prism validated the request, then could not make up a response.
			o.Result = "nomock"
		case status < 500:
			// The document's own responses (a 405 that is the only one it
			// declares, say) are answers, not rejections.
			o.Result = "ok"
		default:
			o.Result = "other"
			o.Violation = fmt.Sprintf("%s %s", viol, body)
		}
		out = append(out, o)
	}
	return out, nil
}

type decl = struct {
	Function struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type call struct {
	decl decl
	all  bool
}

// calls are two for each declaration: with its required arguments, then
// with all of them.
func calls(decls []decl) []call {
	var cs []call
	for _, d := range decls {
		cs = append(cs, call{d, false}, call{d, true})
	}
	return cs
}

// problem is the body of an error Prism makes up itself.
type problem struct {
	Type       string          `json:"type"`
	Validation json.RawMessage `json:"validation"`
	validation string
}

func prismProblem(body string) problem {
	var p problem
	if json.Unmarshal([]byte(body), &p) == nil {
		p.validation = string(p.Validation)
	}
	return p
}

// requestError says whether Prism's violations (its sl-violations header or
// the validation member of its 422) hold one of severity Error about the
// request: those about its own made-up response are not rejections.
func requestError(viol string) bool {
	if viol == "" || viol == "null" {
		return false
	}
	var vs []struct {
		Location []string `json:"location"`
		Severity string   `json:"severity"`
	}
	if json.Unmarshal([]byte(viol), &vs) != nil {
		return true
	}
	for _, v := range vs {
		if v.Severity == "Error" && (len(v.Location) == 0 || v.Location[0] != "response") {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// sampler makes a small value a declaration allows: required members only,
// the first enum value or const, the minimum, minItems items.
type sampler struct {
	defs  map[string]any
	depth int
	all   bool // the optional arguments (the top level's members) too
}

// value makes a small value the declaration s allows (nil, false when it
// cannot): through $ref, const, the first alternative that has one, the
// parts of an allOf merged, an enum's first value; typed for the rest.
func (g *sampler) value(s map[string]any) (any, bool) {
	if g.depth > 40 {
		return nil, false
	}
	g.depth++
	defer func() { g.depth-- }()
	if ref, ok := s["$ref"].(string); ok {
		name, _ := url.PathUnescape(strings.TrimPrefix(ref, "#/$defs/"))
		name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
		return g.value(asMap(g.defs[name]))
	}
	if c, ok := s["const"]; ok {
		return c, true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			for _, a := range alts {
				if v, ok := g.value(asMap(a)); ok && v != nil {
					return v, true
				}
			}
			return nil, false
		}
	}
	if parts, ok := s["allOf"].([]any); ok {
		out := map[string]any{}
		for _, p := range parts {
			v, ok := g.value(asMap(p))
			if !ok {
				return nil, false
			}
			for k, x := range asMap(v) {
				out[k] = x
			}
		}
		return out, true
	}
	types := []string{}
	switch ty := s["type"].(type) {
	case string:
		types = append(types, ty)
	case []any:
		for _, x := range ty {
			if x != "null" {
				types = append(types, x.(string))
			}
		}
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		for _, x := range e {
			if x != nil {
				return x, true
			}
		}
	}
	if len(types) == 0 {
		if _, ok := s["properties"]; ok {
			types = []string{"object"}
		} else {
			return "x", true // any value
		}
	}
	return g.typed(s, types[0])
}

// typed makes a small value of the JSON type typ that the declaration s
// allows (value's part for a schema with a type): a string of its format
// and minLength matching its pattern, its least number, minItems elements,
// the required members (every member at the top level with all).
func (g *sampler) typed(s map[string]any, typ string) (any, bool) {
	num := func(k string) (float64, bool) { f, ok := s[k].(float64); return f, ok }
	switch typ {
	case "string":
		v := FormatSample(s["format"])
		if m, ok := num("minLength"); ok && len(v) < int(m) {
			v += strings.Repeat("a", int(m)-len(v))
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err != nil || !re.MatchString(v) {
				return nil, false
			}
		}
		return v, true
	case "integer", "number":
		if m, ok := num("exclusiveMinimum"); ok {
			return m + 1, true
		}
		if m, ok := num("minimum"); ok {
			return m, true
		}
		if m, ok := num("maximum"); ok && m < 1 {
			return m, true
		}
		return 1, true
	case "boolean":
		return false, true
	case "array":
		n, _ := num("minItems")
		if n < 1 {
			n = 1
		}
		out := []any{}
		for range int(n) {
			v, ok := g.value(asMap(s["items"]))
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case "object":
		out := map[string]any{}
		props := asMap(s["properties"])
		req, _ := s["required"].([]any)
		if g.all && g.depth == 1 {
			req = req[:0:0]
			for k := range props {
				req = append(req, k)
			}
		}
		for _, k := range req {
			name, _ := k.(string)
			v, ok := g.value(asMap(props[name]))
			if !ok {
				return nil, false
			}
			out[name] = v
		}
		return out, true
	}
	return nil, false
}

// FormatSample returns a string valid for a JSON Schema string format: a
// date-time for "date-time", an email address for "email", …, and "YWFh"
// ("aaa" in base64) for any other format, which also serves as bytes.
func FormatSample(format any) string {
	switch format {
	case "date-time":
		return "2024-01-02T03:04:05Z"
	case "date":
		return "2024-01-02"
	case "time":
		return "03:04:05Z"
	case "uuid":
		return "123e4567-e89b-12d3-a456-426614174000"
	case "email":
		return "a@example.com"
	case "ipv4":
		return "127.0.0.1"
	case "ipv6":
		return "::1"
	case "hostname":
		return "example.com"
	case "uri", "url":
		return "https://example.com/a"
	case "duration":
		return "P1D"
	}
	return "YWFh"
}
