package decode

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Helpers of generated decoders: formats beyond the JSON types (date-time,
// base64 bytes, untyped values) and the constraints of the schemas that every
// generated package checks, whatever document it comes from (OpenTool, OpenDyn,
// an MCP tools/list, OpenAPI): minimum and maximum (inclusive or exclusive),
// multipleOf, minLength, maxLength, pattern, format, minItems, maxItems,
// uniqueItems, minProperties, maxProperties and const. Each check records a
// violation at the decoder's current position.

// Time reads an RFC 3339 date-time string into *x.
func Time(d *Decoder, x *time.Time) {
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

// Bytes reads a base64 string (standard or URL alphabet, padded or not)
// into *x.
func Bytes(d *Decoder, x *[]byte) {
	s, ok := d.String()
	if !ok {
		return
	}
	if b, ok := decodeBase64(s); ok {
		*x = b
		return
	}
	d.Invalid("got a string that is not base64, want base64-encoded bytes")
}

// decodeBase64 reads s in the standard or URL alphabet, padded or not.
func decodeBase64(s string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}

// Raw reads any JSON value into *x, as it is.
func Raw(d *Decoder, x *json.RawMessage) {
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

// CheckMultipleOf records a violation when v is not a multiple of m (m > 0),
// within the rounding of float64: 0.3 is a multiple of 0.1.
func CheckMultipleOf(d *Decoder, v, m float64) {
	q := v / m
	if math.IsInf(q, 0) || math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
		d.Invalid("got " + formatNumber(v) + ", want a multiple of " + formatNumber(m))
	}
}

// CheckMultipleOfInt records a violation when the integer v is not a multiple
// of m (m > 0).
func CheckMultipleOfInt(d *Decoder, v, m int64) {
	if m > 0 && v%m != 0 {
		d.Invalid("got " + strconv.FormatInt(v, 10) + ", want a multiple of " + strconv.FormatInt(m, 10))
	}
}

// CheckProperties records a violation when an object has fewer than min or
// more than max members (negative bounds are not checked).
func CheckProperties(d *Decoder, n int, min, max int64) {
	if min >= 0 && int64(n) < min {
		d.Invalid("got " + strconv.Itoa(n) + " members, want at least " + strconv.FormatInt(min, 10))
	}
	if max >= 0 && int64(n) > max {
		d.Invalid("got " + strconv.Itoa(n) + " members, want at most " + strconv.FormatInt(max, 10))
	}
}

// CheckUnique records a violation when two elements of s are equal (JSON
// Schema's uniqueItems), for elements Go compares with ==.
func CheckUnique[S ~[]E, E comparable](d *Decoder, s S) {
	if len(s) < 2 {
		return
	}
	if len(s) <= 16 { // no map for a short array
		for j := 1; j < len(s); j++ {
			for i := 0; i < j; i++ {
				if s[i] == s[j] {
					notUnique(d, i, j)
					return
				}
			}
		}
		return
	}
	first := make(map[E]int, len(s))
	for j, v := range s {
		if i, ok := first[v]; ok {
			notUnique(d, i, j)
			return
		}
		first[v] = j
	}
}

// CheckUniqueJSON is [CheckUnique] for elements compared by their JSON value
// (objects, arrays, untyped values): two elements are equal when their JSON
// encodings are, once object members are sorted and numbers written alike.
func CheckUniqueJSON[S ~[]E, E any](d *Decoder, s S) {
	if len(s) < 2 {
		return
	}
	first := make(map[string]int, len(s))
	for j, v := range s {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		var x any
		if json.Unmarshal(b, &x) == nil {
			if c, err := json.Marshal(x); err == nil {
				b = c
			}
		}
		if i, ok := first[string(b)]; ok {
			notUnique(d, i, j)
			return
		}
		first[string(b)] = j
	}
}

func notUnique(d *Decoder, i, j int) {
	d.Invalid("got element " + strconv.Itoa(j) + " equal to element " + strconv.Itoa(i) + ", want unique elements")
}

// CheckConst records a violation when v is not want (JSON Schema's const, of
// a string, number, integer or boolean).
func CheckConst[T comparable](d *Decoder, v, want T) {
	if v != want {
		d.Invalid("got " + constText(v) + ", want " + constText(want))
	}
}

func constText(v any) string {
	switch x := v.(type) {
	case string:
		return quoteValue(x)
	case float64:
		return formatNumber(x)
	case float32:
		return formatNumber(float64(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
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
		d.Invalid("got " + quoteValue(s) + ", want a string matching " + strconv.Quote(p.expr))
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

// Variant decodes raw, a value read by d, as one variant of a union with
// fn. It reports whether the value is a valid v; with report, the violations
// are recorded in d at their place.
func Variant[T any](d *Decoder, raw []byte, v *T, fn func(*Decoder, *T), report bool) bool {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		if report {
			d.Invalid("got null, want a value")
		}
		return false
	}
	err := Value(raw, v, fn)
	if err == nil {
		return true
	}
	if report {
		var e *runtime.Error
		if errors.As(err, &e) {
			for _, vi := range e.Violations() {
				invalidAt(d, vi.Path, vi.Message)
			}
		}
	}
	return false
}

// VariantPtr is [Variant] for a variant a union holds by pointer: when
// raw is a valid T, *p points to it; else *p is left as it is.
func VariantPtr[T any](d *Decoder, raw []byte, p **T, fn func(*Decoder, *T), report bool) bool {
	var v T
	if !Variant(d, raw, &v, fn, report) {
		return false
	}
	*p = &v
	return true
}

// A Candidate is one of the variants of a union that a discriminator value
// shared by several of them may pick (see Shared); Try makes one.
type Candidate struct {
	name string
	try  func(raw []byte) error
}

// Try returns the candidate variant name, decoded into v with fn.
func Try[T any](name string, v *T, fn func(*Decoder, *T)) Candidate {
	return Candidate{name: name, try: func(raw []byte) error { return Value(raw, v, fn) }}
}

// maxCandidateViolations is how many of each candidate's violations the
// violation of Shared quotes.
const maxCandidateViolations = 3

// Shared decodes raw, a value read by d whose discriminator member prop
// has the value tag, as the first of cands it is valid for, and returns that
// candidate's index. When it is valid for none, it records one violation
// naming each candidate with its first violations (what the value lacks to be
// that variant) and returns -1.
func Shared(d *Decoder, raw []byte, prop, tag string, cands ...Candidate) int {
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
		var e *runtime.Error
		var vs []runtime.Violation
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

// Text decodes into v with fn the value d is at, which may be a string
// holding the value's JSON text, as the data of a Server-Sent Event does
// ({"data": "{\"n\":1}"}): when it is a string whose text is JSON, that
// JSON; otherwise the value itself ({"data": {"n": 1}}, or a string that is
// not JSON). Violations are recorded in d at their place.
func Text[T any](d *Decoder, v *T, fn func(*Decoder, *T)) {
	if d.peek() != '"' {
		fn(d, v)
		return
	}
	raw := d.Raw()
	var s string
	if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
		raw = []byte(s)
	}
	Variant(d, raw, v, fn, true)
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

// The formats generated decoders check ([CheckFormat]), each with the
// standard library only:
//
//   - date-time: RFC 3339 date-time (time.RFC3339Nano: "2024-05-01T10:00:00Z")
//   - date: RFC 3339 full-date ("2024-05-01"), a real day
//   - time: RFC 3339 full-time ("10:00:00Z", "10:00:00.5+02:00")
//   - email: one address as net/mail reads it, alone ("a@example.com", not "A <a@example.com>")
//   - uri: an absolute URI as net/url reads it (a scheme, no spaces)
//   - uri-reference: a URI or a relative reference as net/url reads it
//   - uuid: 8-4-4-4-12 hexadecimal digits, any version
//   - ipv4: dotted decimal, no leading zeros (net/netip)
//   - ipv6: RFC 4291 text, no zone (net/netip)
//   - hostname: RFC 1123: labels of 1 to 63 letters, digits and hyphens, not
//     starting or ending with a hyphen, at most 253 characters in all
//   - byte, binary (OpenAPI): base64, standard or URL alphabet, padded or not,
//     as [Bytes] reads it
//
// A generator drops any other format of a string from what a package
// serves, with a warning (OpenAPI's numeric formats are types: int32, int64,
// float, double).
var checkedFormats = map[string]string{
	"date-time":     "an RFC 3339 date-time",
	"date":          "an RFC 3339 date (YYYY-MM-DD)",
	"time":          "an RFC 3339 time (hh:mm:ss with a time zone)",
	"email":         "an email address",
	"uri":           "an absolute URI",
	"uri-reference": "a URI reference",
	"uuid":          "a UUID",
	"ipv4":          "an IPv4 address",
	"ipv6":          "an IPv6 address",
	"hostname":      "a host name",
	"byte":          "base64-encoded bytes",
	"binary":        "base64-encoded bytes",
}

// FormatChecked reports whether [CheckFormat] checks the string format name.
func FormatChecked(name string) bool {
	_, ok := checkedFormats[name]
	return ok
}

// CheckedFormats lists the string formats [CheckFormat] checks, sorted.
func CheckedFormats() []string {
	return slices.Sorted(maps.Keys(checkedFormats))
}

// CheckFormat records a violation when s is not a string of the format name
// (see [FormatChecked]); an unknown format is not checked.
func CheckFormat(d *Decoder, s, name string) {
	want, ok := checkedFormats[name]
	if !ok || validFormat(s, name) {
		return
	}
	d.Invalid("got " + quoteValue(s) + ", want " + want)
}

// quoteValue quotes the string value s for a violation, its first 40
// characters when it is longer.
func quoteValue(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return strconv.Quote(s)
}

func validFormat(s, name string) bool {
	switch name {
	case "date-time":
		_, err := time.Parse(time.RFC3339Nano, strings.Replace(strings.Replace(s, "t", "T", 1), "z", "Z", 1))
		return err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil && len(s) == 10
	case "time":
		_, err := time.Parse("15:04:05.999999999Z07:00", strings.Replace(s, "z", "Z", 1))
		return err == nil
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s && a.Name == ""
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\r\n")
	case "uri-reference":
		_, err := url.Parse(s)
		return err == nil && !strings.ContainsAny(s, " \t\r\n")
	case "uuid":
		return validUUID(s)
	case "ipv4", "ipv6":
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return false
		}
		if name == "ipv4" {
			return a.Is4()
		}
		return a.Is6()
	case "hostname":
		return validHostname(s)
	case "byte", "binary":
		_, ok := decodeBase64(s)
		return ok
	}
	return true
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func validHostname(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
