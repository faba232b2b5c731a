package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Helpers of decoders generated from OpenAPI documents: formats beyond the
// JSON types (date-time, base64 bytes, untyped values) and the constraints of
// the schemas (minimum, maxLength, pattern, …). Each check records a
// violation at the decoder's current position.

// DecodeTime reads an RFC 3339 date-time string into *x.
func DecodeTime(d *Decoder, x *time.Time) {
	s, ok := d.String()
	if !ok {
		return
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		d.Invalid("got " + strconv.Quote(s) + ", want an RFC 3339 date-time")
		return
	}
	*x = t
}

// DecodeBytes reads a base64 string (standard or URL alphabet, padded or not)
// into *x.
func DecodeBytes(d *Decoder, x *[]byte) {
	s, ok := d.String()
	if !ok {
		return
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			*x = b
			return
		}
	}
	d.Invalid("got a string that is not base64, want base64-encoded bytes")
}

// DecodeRaw reads any JSON value into *x, as it is.
func DecodeRaw(d *Decoder, x *json.RawMessage) {
	if raw := d.Raw(); raw != nil {
		*x = raw
	}
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CheckMin records a violation when v < min (v <= min when exclusive).
func CheckMin(d *Decoder, v, min float64, exclusive bool) {
	if v < min || exclusive && v == min {
		op := "≥ "
		if exclusive {
			op = "> "
		}
		d.Invalid("got " + formatNumber(v) + ", want " + op + formatNumber(min))
	}
}

// CheckMax records a violation when v > max (v >= max when exclusive).
func CheckMax(d *Decoder, v, max float64, exclusive bool) {
	if v > max || exclusive && v == max {
		op := "≤ "
		if exclusive {
			op = "< "
		}
		d.Invalid("got " + formatNumber(v) + ", want " + op + formatNumber(max))
	}
}

// CheckLength records a violation when s has fewer than min or more than max
// characters (negative bounds are not checked).
func CheckLength(d *Decoder, s string, min, max int64) {
	n := int64(utf8.RuneCountInString(s))
	if min >= 0 && n < min {
		d.Invalid("got " + strconv.FormatInt(n, 10) + " characters, want at least " + strconv.FormatInt(min, 10))
	}
	if max >= 0 && n > max {
		d.Invalid("got " + strconv.FormatInt(n, 10) + " characters, want at most " + strconv.FormatInt(max, 10))
	}
}

// CheckItems records a violation when an array has fewer than min or more
// than max elements (negative bounds are not checked).
func CheckItems(d *Decoder, n int, min, max int64) {
	if min >= 0 && int64(n) < min {
		d.Invalid("got " + strconv.Itoa(n) + " elements, want at least " + strconv.FormatInt(min, 10))
	}
	if max >= 0 && int64(n) > max {
		d.Invalid("got " + strconv.Itoa(n) + " elements, want at most " + strconv.FormatInt(max, 10))
	}
}

// Pattern is a regular expression of a schema, compiled on first use.
type Pattern struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// NewPattern returns the pattern expr (RE2 syntax; the generator only emits
// patterns that compile).
func NewPattern(expr string) *Pattern { return &Pattern{expr: expr} }

// MatchString reports whether s matches the pattern; a pattern that does not
// compile matches everything.
func (p *Pattern) MatchString(s string) bool {
	p.once.Do(func() { p.re, _ = regexp.Compile(p.expr) })
	return p.re == nil || p.re.MatchString(s)
}

// CheckPattern records a violation when s does not match p.
func CheckPattern(d *Decoder, s string, p *Pattern) {
	if !p.MatchString(s) {
		v := s
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		d.Invalid("got " + strconv.Quote(v) + ", want a string matching " + strconv.Quote(p.expr))
	}
}

// UnionTag returns the string value of the member prop of the JSON object raw
// (the discriminator of a union), or "" when there is none.
func UnionTag(raw []byte, prop string) string {
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[prop], &s) != nil {
		return ""
	}
	return s
}

// DecodeVariant decodes raw, a value read by d, as one variant of a union with
// fn. It reports whether the value is a valid v; with report, the violations
// are recorded in d at their place.
func DecodeVariant[T any](d *Decoder, raw []byte, v *T, fn func(*Decoder, *T), report bool) bool {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		if report {
			d.Invalid("got null, want a value")
		}
		return false
	}
	err := Decode(raw, v, fn)
	if err == nil {
		return true
	}
	if report {
		var e *Error
		if errors.As(err, &e) {
			for _, vi := range e.Violations() {
				invalidAt(d, vi.Path, vi.Message)
			}
		}
	}
	return false
}

// A Candidate is one of the variants of a union that a discriminator value
// shared by several of them may pick (see DecodeShared); Try makes one.
type Candidate struct {
	name string
	try  func(raw []byte) error
}

// Try returns the candidate variant name, decoded into v with fn.
func Try[T any](name string, v *T, fn func(*Decoder, *T)) Candidate {
	return Candidate{name: name, try: func(raw []byte) error { return Decode(raw, v, fn) }}
}

// maxCandidateViolations is how many of each candidate's violations the
// violation of DecodeShared quotes.
const maxCandidateViolations = 3

// DecodeShared decodes raw, a value read by d whose discriminator member prop
// has the value tag, as the first of cands it is valid for, and returns that
// candidate's index. When it is valid for none, it records one violation
// naming each candidate with its first violations (what the value lacks to be
// that variant) and returns -1.
func DecodeShared(d *Decoder, raw []byte, prop, tag string, cands ...Candidate) int {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		d.Invalid("got null, want a value")
		return -1
	}
	errs := make([]error, len(cands))
	for i, c := range cands {
		if errs[i] = c.try(raw); errs[i] == nil {
			return i
		}
	}
	var b strings.Builder
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	b.WriteString("got " + strconv.Quote(prop) + " " + strconv.Quote(tag) + ", which " + joinAnd(names) + " share, and a value that is none of them:")
	for i, c := range cands {
		b.WriteString(" ")
		b.WriteString(c.name)
		b.WriteString(" (")
		var e *Error
		var vs []Violation
		if errors.As(errs[i], &e) {
			vs = e.Violations()
		}
		if len(vs) == 0 {
			b.WriteString(errs[i].Error())
		}
		for j, v := range vs {
			if j == maxCandidateViolations {
				b.WriteString("; …")
				break
			}
			if j > 0 {
				b.WriteString("; ")
			}
			b.WriteString(v.String())
		}
		b.WriteString(")")
		if i < len(cands)-1 {
			b.WriteString(",")
		}
	}
	d.Invalid(b.String())
	return -1
}

// joinAnd joins names as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// DecodeText decodes into v with fn the value d is at, which may be a string
// holding the value's JSON text, as the data of a Server-Sent Event does
// ({"data": "{\"n\":1}"}): when it is a string whose text is JSON, that
// JSON; otherwise the value itself ({"data": {"n": 1}}, or a string that is
// not JSON). Violations are recorded in d at their place.
func DecodeText[T any](d *Decoder, v *T, fn func(*Decoder, *T)) {
	if d.peek() != '"' {
		fn(d, v)
		return
	}
	raw := d.Raw()
	var s string
	if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
		raw = []byte(s)
	}
	DecodeVariant(d, raw, v, fn, true)
}

// invalidAt records a violation at the JSON pointer path below d's position.
func invalidAt(d *Decoder, path, msg string) {
	var toks []string
	if path != "" {
		toks = strings.Split(strings.TrimPrefix(path, "/"), "/")
	}
	for _, t := range toks {
		d.Push(strings.NewReplacer("~1", "/", "~0", "~").Replace(t))
	}
	d.Invalid(msg)
	for range toks {
		d.Pop()
	}
}
