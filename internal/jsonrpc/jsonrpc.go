// Package jsonrpc reads the envelope of a JSON-RPC 2.0 request as the
// OpenTool server does (each member once, matched as encoding/json matches
// struct fields), makes what it echoes valid UTF-8, and writes and tests the
// JSON values the runtime packages share (strings, null, objects).
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Envelope holds the members of a request object that the server reads, each
// as raw JSON (nil when absent), slices of the body.
type Envelope struct {
	Method, Params, ID []byte
	// Repeated is the first member that occurs more than once ("" if none);
	// IDRepeated tells whether id is one.
	Repeated   string
	IDRepeated bool
}

// Members of the envelope, as bits of a set.
const (
	memberJSONRPC = 1 << iota
	memberMethod
	memberParams
	memberID
)

// Parse reads the members of body, a valid JSON object (json.Valid
// has said so, and body starts with '{'), in one pass that skips over their
// values. A member name matches as encoding/json matches it into a struct
// field: after unescaping, case-insensitively with Unicode folding
// (bytes.EqualFold), so "METHOD" and "\u006dethod" are the method too. Each
// member may occur once: a proxy that takes the first of two and a decoder
// that takes the last would see different calls. Members that are not part of
// the envelope are skipped, repeated or not.
func Parse(body []byte) Envelope {
	var env Envelope
	seen := 0
	i := 1
	for {
		i = skipSpace(body, i)
		if i >= len(body) || body[i] == '}' {
			return env
		}
		if body[i] == ',' {
			i = skipSpace(body, i+1)
		}
		end := endOfString(body, i)
		key := body[i+1 : end-1]
		i = skipSpace(body, end) + 1 // the colon
		i = skipSpace(body, i)
		start := i
		i = endOfValue(body, i)
		m, name := envelopeMember(key)
		if m == 0 {
			continue
		}
		if seen&m != 0 {
			if env.Repeated == "" {
				env.Repeated = name
			}
			env.IDRepeated = env.IDRepeated || m == memberID
			continue
		}
		seen |= m
		switch m {
		case memberMethod:
			env.Method = body[start:i]
		case memberParams:
			env.Params = body[start:i]
		case memberID:
			env.ID = body[start:i]
		}
	}
}

// envelopeMember tells which member of the envelope key (a member name as
// written, without its quotes) is, and its name; 0 for another member.
func envelopeMember(key []byte) (int, string) {
	plain := true
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if !plain {
		if bytes.IndexByte(key, '\\') >= 0 {
			var s string
			quoted := make([]byte, 0, len(key)+2)
			quoted = append(append(append(quoted, '"'), key...), '"')
			if json.Unmarshal(quoted, &s) != nil {
				return 0, ""
			}
			key = []byte(s)
		}
		for _, n := range [...]struct {
			m    int
			name string
		}{{memberJSONRPC, "jsonrpc"}, {memberMethod, "method"}, {memberParams, "params"}, {memberID, "id"}} {
			if bytes.EqualFold(key, []byte(n.name)) {
				return n.m, n.name
			}
		}
		return 0, ""
	}
	switch len(key) {
	case 2:
		if lowerEqual(key, "id") {
			return memberID, "id"
		}
	case 6:
		if lowerEqual(key, "method") {
			return memberMethod, "method"
		}
		if lowerEqual(key, "params") {
			return memberParams, "params"
		}
	case 7:
		if lowerEqual(key, "jsonrpc") {
			return memberJSONRPC, "jsonrpc"
		}
	}
	return 0, ""
}

// lowerEqual reports whether ASCII key equals name (lower-case letters) but
// for the case of its letters.
func lowerEqual(key []byte, name string) bool {
	for i := range len(key) {
		if key[i]|0x20 != name[i] { // only 'x' and 'X' give 'x' for a letter x
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && jsonWS(b[i]) {
		i++
	}
	return i
}

// endOfString returns the index just past the string that starts at b[i]
// (a quote) in valid JSON.
func endOfString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		escaped := false
		for m := j - 1; b[m] == '\\'; m-- {
			escaped = !escaped
		}
		if !escaped {
			return j + 1
		}
		j++
	}
}

// endOfValue returns the index just past the value that starts at b[i] in
// valid JSON.
func endOfValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return endOfString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = endOfString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) && !jsonWS(b[i]) && b[i] != ',' && b[i] != '}' && b[i] != ']' {
		i++
	}
	return i
}

// Method decodes the method member, a JSON string; ok is false for
// anything else.
func Method(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	for _, c := range s {
		if c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			var m string
			err := json.Unmarshal(raw, &m) // escapes; invalid UTF-8 becomes U+FFFD
			return m, err == nil
		}
	}
	return string(s), true
}

// ---- valid UTF-8 in answers ----

// CanonicalID returns the id to echo for id, the raw JSON of a string or a
// number: id itself (the reference clients compare it byte for byte), unless
// it is a string that holds bytes that are not UTF-8, or escapes a lone UTF-16
// surrogate, which decoders read as U+FFFD. Such an id is re-encoded as the
// string a JSON decoder reads from it, so that the answer is valid UTF-8 and
// every decoder reads the same id.
func CanonicalID(id []byte) []byte {
	if len(id) == 0 || id[0] != '"' {
		return id // a number or null: ASCII, as json.Valid checked
	}
	plain := true
	for _, c := range id {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain || (utf8.Valid(id) && !hasLoneSurrogate(id)) {
		return id
	}
	var s string
	if json.Unmarshal(id, &s) != nil {
		return []byte("null")
	}
	b, _ := json.Marshal(s)
	return b
}

// hasLoneSurrogate reports whether the JSON string s escapes a UTF-16
// surrogate that is not half of a pair (\ud800 alone, or \udc00 first).
func hasLoneSurrogate(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if i+4 >= len(s) || s[i] != 'u' {
			continue
		}
		r := hex4(s[i+1 : i+5])
		i += 4
		switch {
		case 0xd800 <= r && r < 0xdc00:
			if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if r2 := hex4(s[i+3 : i+7]); 0xdc00 <= r2 && r2 < 0xe000 {
					i += 6
					continue
				}
			}
			return true
		case 0xdc00 <= r && r < 0xe000:
			return true
		}
	}
	return false
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// WriteValidUTF8 writes raw, valid JSON, with each byte that is not part of
// valid UTF-8 written as \ufffd. Such bytes can only be inside strings, and
// there the escape stands for what a decoder reads for them.
func WriteValidUTF8(buf *bytes.Buffer, raw []byte) {
	if utf8.Valid(raw) {
		buf.Write(raw)
		return
	}
	start := 0
	for i := 0; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 {
			buf.Write(raw[start:i])
			buf.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	buf.Write(raw[start:])
}

// jsonWS reports whether c is JSON whitespace.
func jsonWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
