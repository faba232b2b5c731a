package emit

import (
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The indefinite article before a Go identifier in a comment, chosen by how
// the identifier is read: "a runtime.Caller", "a *runtime.Client" (a pointer
// is read as its type), "an *mcpbridge.Tool" (M-C-P), "an Args", "a URL".

// spelled are the initialisms read letter by letter (an MCP server, a URL);
// the others are read as words (a JSON body, a YAML file, a NATS server).
var spelled = map[string]bool{
	"acl": true, "api": true, "cpu": true, "css": true, "csv": true, "db": true, "dns": true,
	"eof": true, "ftp": true, "guid": true, "html": true, "http": true, "https": true, "id": true,
	"io": true, "ip": true, "jwt": true, "lhs": true, "llm": true, "mcp": true, "ndjson": true,
	"os": true, "pdf": true, "qps": true, "rhs": true, "rpc": true, "sdk": true, "sla": true,
	"smtp": true, "sql": true, "ssh": true, "sse": true, "tcp": true, "tls": true, "ttl": true,
	"udp": true, "ui": true, "uid": true, "uri": true, "url": true, "utc": true, "utf8": true,
	"uuid": true, "vm": true, "xml": true, "xmpp": true, "xsrf": true, "xss": true,
}

// an returns ident after its indefinite article: "a " or "an " as it is read.
func an(ident string) string {
	if anSound(ident) {
		return "an " + ident
	}
	return "a " + ident
}

// anSound reports whether ident is read starting with a vowel sound.
func anSound(ident string) bool {
	s := strings.TrimLeft(ident, "*[]&.")
	if s == "" {
		return false
	}
	if pkg, _, ok := strings.Cut(s, "."); ok && pkg == strings.ToLower(pkg) {
		// A package name, read first: its leading initialism spelled
		// (mcpbridge: M-C-P bridge), else as a word (runtime, dynlib).
		for i := len(pkg); i >= 2; i-- {
			if p := pkg[:i]; spelled[p] && (i == len(pkg) || !strings.ContainsAny(p, "aeiou")) {
				return letterSound(p[0])
			}
		}
		return wordSound(pkg)
	}
	words := model.Words(s)
	if len(words) == 0 {
		return false
	}
	w := words[0]
	if lw := strings.ToLower(w); spelled[lw] && w == strings.ToUpper(w) {
		return letterSound(lw[0])
	}
	return wordSound(strings.ToLower(w))
}

// letterSound reports whether the name of the letter c starts with a vowel
// sound: a, e, f (ef), h (aitch), i, l (el), m, n, o, r (ar), s, x.
func letterSound(c byte) bool { return strings.IndexByte("aefhilmnorsx", c|0x20) >= 0 }

// wordSound reports whether the lower-case word w starts with a vowel sound:
// a vowel, but not the "you" of user or unit nor the "w" of one, and a
// silent h (hour).
func wordSound(w string) bool {
	for _, p := range []string{"uni", "use", "usa", "usi", "usu", "uti", "uint", "ura", "ure", "uri", "uro", "eu", "one", "once", "ubiq"} {
		if strings.HasPrefix(w, p) {
			return false
		}
	}
	for _, p := range []string{"hour", "honest", "honor", "honour", "heir"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return w != "" && strings.IndexByte("aeiou", w[0]) >= 0
}
