package model

import (
	"fmt"
	"go/token"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are written in upper case in Go names (as golint and the Go
// standard library do).
var initialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "csv": true, "db": true,
	"dns": true, "eof": true, "grpc": true, "guid": true, "html": true, "http": true, "https": true,
	"id": true, "io": true, "ip": true, "json": true, "jwt": true, "lhs": true, "llm": true,
	"os": true, "pdf": true, "qps": true, "ram": true, "rhs": true, "rpc": true, "sdk": true,
	"sla": true, "smtp": true, "sql": true, "ssh": true, "tcp": true, "tls": true, "ttl": true,
	"udp": true, "ui": true, "uid": true, "uri": true, "url": true, "utc": true, "utf8": true,
	"uuid": true, "vm": true, "xml": true, "xmpp": true, "xsrf": true, "xss": true, "yaml": true,
}

// mixedInitialisms are written so in Go names, neither all in capitals nor
// as a word (oauth → OAuth).
var mixedInitialisms = map[string]string{"oauth": "OAuth"}

// Words splits a document name into words: at every rune that is neither letter
// nor digit, and at case changes ("userId" → user Id, "HTTPServer" → HTTP Server).
func Words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			// the last capital of a run starts a new word: HTTPServer → HTTP Server
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// GoName converts a document name to an exported Go identifier: words joined in
// CamelCase, initialisms in capitals (user_id → UserID, urls → URLs), an "X"
// before a name that would not start with a capital letter (2fa → X2fa,
// 名前 → X名前). It returns "" for a name without letters or digits; callers
// supply a fallback.
func GoName(s string) string {
	name := Camel(s)
	if name == "" {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		name = "X" + name
	}
	if !token.IsIdentifier(name) || !token.IsExported(name) {
		// cannot happen with the rules above; keep the output compiling anyway
		return "X" + strconv.Itoa(len(name))
	}
	return name
}

// Camel joins the words of s in CamelCase with initialisms in capitals, without
// making sure the result starts with a capital letter: for suffixes of names.
func Camel(s string) string {
	var b strings.Builder
	for _, w := range Words(s) {
		lw := strings.ToLower(w)
		letters := strings.TrimRight(lw, "0123456789")
		switch {
		case mixedInitialisms[lw] != "":
			b.WriteString(mixedInitialisms[lw])
		case initialisms[lw]:
			b.WriteString(strings.ToUpper(lw))
		case len(lw) > 2 && strings.HasSuffix(lw, "s") && (initialisms[lw[:len(lw)-1]] || mixedInitialisms[lw[:len(lw)-1]] != ""):
			if m := mixedInitialisms[lw[:len(lw)-1]]; m != "" {
				b.WriteString(m + "s")
			} else {
				b.WriteString(strings.ToUpper(lw[:len(lw)-1]) + "s")
			}
		case letters != "" && letters != lw && (initialisms[letters] || mixedInitialisms[letters] != ""):
			// an initialism and a version: oauth2 → OAuth2, http2 → HTTP2
			if m := mixedInitialisms[letters]; m != "" {
				b.WriteString(m + lw[len(letters):])
			} else {
				b.WriteString(strings.ToUpper(lw))
			}
		default:
			r, size := utf8.DecodeRuneInString(w)
			b.WriteRune(unicode.ToUpper(r))
			b.WriteString(w[size:])
		}
	}
	return b.String()
}

// GoNameOr is GoName with a fallback for names without letters or digits.
func GoNameOr(s, fallback string) string {
	if n := GoName(s); n != "" {
		return n
	}
	return fallback
}

// Scope hands out identifiers that are unique within it: the first taker of a
// name gets it, later ones get the name with a number appended (Name2, Name3…).
// Names are handed out in document order, so the result is deterministic.
type Scope struct {
	used map[string]bool
	// next is, per base taken more than once, the number to try first: the
	// numbers below it are used, so a base taken n times costs n tries in
	// all rather than n²/2.
	next map[string]int
	// parent's names are taken in this scope too (see Sub).
	parent *Scope
}

// NewScope returns a scope in which the reserved names are taken.
func NewScope(reserved ...string) *Scope {
	s := &Scope{used: make(map[string]bool, len(reserved)), next: map[string]int{}}
	for _, r := range reserved {
		s.used[r] = true
	}
	return s
}

// Sub returns a scope in which s's names are taken, without copying them:
// for the many small scopes (one per method) that share a large set of
// reserved names. s must not take names while the sub-scope is in use.
func (s *Scope) Sub() *Scope {
	return &Scope{used: map[string]bool{}, next: map[string]int{}, parent: s}
}

// Take returns base (bounded in length: BoundName), or base with the
// smallest number ≥ 2 that makes it unused, and marks it used.
func (s *Scope) Take(base string) string {
	base = BoundName(base)
	name := base
	if s.Has(name) {
		n := max(s.next[base], 2)
		for name = base + strconv.Itoa(n); s.Has(name); name = base + strconv.Itoa(n) {
			n++
		}
		s.next[base] = n + 1
	}
	s.used[name] = true
	return name
}

// MaxNameLength bounds the length, in runes, of the names a Scope hands out
// (before a number that tells apart names taken twice).
const MaxNameLength = 64

// boundHashLen is the length of the hash in a bounded name; boundTail the
// most runes of its last words that it keeps.
const (
	boundHashLen = 6
	boundTail    = 20
)

// BoundName returns name if it has at most MaxNameLength runes, else a name
// of that length that stays readable, stable and distinct: its first words,
// six upper-case hexadecimal digits of a hash (FNV-1a) of the whole name,
// and its last words (at most boundTail runes: what the name ends with
// tells what it is — Args, Result, an enum's value), each part cut where a
// word starts. The result depends on name alone, so adding a name elsewhere
// in a document renames nothing, and two long names that differ anywhere
// almost surely get different hashes; the Scope numbers the rare ones that
// still meet.
func BoundName(name string) string {
	rs := []rune(name)
	if len(rs) <= MaxNameLength {
		return name
	}
	tail := len(rs)
	for i := len(rs) - 1; i >= len(rs)-boundTail; i-- {
		if wordStart(rs, i) {
			tail = i
		}
	}
	head := MaxNameLength - boundHashLen - (len(rs) - tail)
	for i := head; i > head/2; i-- {
		if wordStart(rs, i) {
			head = i
			break
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s%06X%s", string(rs[:head]), h.Sum32()&0xFFFFFF, string(rs[tail:]))
}

// wordStart reports whether a word of the CamelCase name rs starts at i:
// an upper-case letter after a lower-case one or before one (HTTPServer),
// or the first of a run of digits.
func wordStart(rs []rune, i int) bool {
	if i <= 0 || i >= len(rs) {
		return false
	}
	r, prev := rs[i], rs[i-1]
	switch {
	case unicode.IsUpper(r):
		return !unicode.IsUpper(prev) || i+1 < len(rs) && unicode.IsLower(rs[i+1])
	case unicode.IsDigit(r):
		return !unicode.IsDigit(prev)
	}
	return false
}

// Has reports whether name is taken.
func (s *Scope) Has(name string) bool {
	return s.used[name] || s.parent != nil && s.parent.Has(name)
}

// maxNestedName bounds the names of the inline types nested in other types:
// a nested type is named after its parent and its member (PetOwner, then
// PetOwnerAddress) while that takes at most maxNestedName bytes. Beyond, so
// that names do not grow with the depth of nesting, it is named after the
// member and the parent's last words: the fewest that hold two words that
// say something (not Item, Value, Variant or a number) and make a name not
// taken, then more of them while the name stays within the bound
// (…AuthenticationOptionsItem's "type": AuthenticationOptionsItemType);
// only when all are taken, after the member alone. A name another type has
// taken since gets more of the parent's words (Place.take) before a number.
const maxNestedName = 64

// NestedName is the name wanted for the type of the member (or the element,
// "Item", or map value, "Value") member of the type named parent; types is
// the scope the name will be taken in.
func NestedName(types *Scope, parent, member string) string {
	if len(parent)+len(member) <= maxNestedName {
		return parent + member
	}
	rs := []rune(parent)
	telling := 0
	end := len(rs)
	for i := len(rs) - 1; i > 0; i-- {
		if !wordStart(rs, i) {
			continue
		}
		word := string(rs[i:end])
		end = i
		switch {
		case word == "Item" || word == "Value" || word == "Variant" || strings.Trim(word, "0123456789") == "":
		default:
			telling++
		}
		name := string(rs[i:]) + member
		if len(name) > maxNestedName {
			break
		}
		if r, _ := utf8.DecodeRuneInString(name); telling >= 2 && unicode.IsUpper(r) && !types.Has(name) {
			return name
		}
	}
	return member
}

// maxOrigin bounds the origins of nested types (Type.Origin): an element of
// an array of arrays is "an element of an element of …" up to that length,
// and beyond it "a value nested in" the place the nesting starts.
const maxOrigin = 160

// NestedOrigin is the origin of a value nested in the value of origin, said
// with prefix ("an element of ", "a value of ") while it stays short.
func NestedOrigin(prefix, origin string) string {
	const nested = "a value nested in "
	if strings.HasPrefix(origin, nested) {
		return origin
	}
	if len(prefix)+len(origin) <= maxOrigin {
		return prefix + origin
	}
	for {
		if o, ok := strings.CutPrefix(origin, "an element of "); ok {
			origin = o
		} else if o, ok := strings.CutPrefix(origin, "a value of "); ok {
			origin = o
		} else {
			return nested + origin
		}
	}
}

// IsLetterOrDigit reports whether r is a Unicode letter or digit.
func IsLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// NameMethods decides the names of the methods that the generated files
// declare per function besides its GoName: the Tool's unexported methods
// (callF, streamF: GoNames are exported and distinct, so these are too) and
// the Client's iterator method of a streaming function (FSeq, numbered when a
// function's GoName takes it).
func NameMethods(p *Package) {
	methods := NewScope()
	for _, fn := range p.Functions {
		methods.Take(fn.GoName)
	}
	for _, fn := range p.Functions {
		fn.ToolMethod = "call" + fn.GoName
		if fn.Stream {
			fn.ToolMethod = "stream" + fn.GoName
			fn.SeqName = methods.Take(fn.GoName + "Seq")
		}
	}
}

// LocalName is the lowerCamelCase Go identifier of a document name, for
// parameters and results: user_id → userID, URLPath → urlPath, 2fa → x2fa.
func LocalName(s, fallback string) string {
	ws := Words(s)
	if len(ws) == 0 {
		return fallback
	}
	name := strings.ToLower(ws[0])
	for _, w := range ws[1:] {
		name += Camel(w)
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) || unicode.IsUpper(r) {
		name = "x" + name
	}
	if !token.IsIdentifier(name) && !token.IsKeyword(name) { // keywords are reserved in the scope
		return fallback
	}
	return name
}
