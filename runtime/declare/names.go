package declare

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Names returns the name under which each function of doc is
// declared: its own when it fits every provider (1 to 64 ASCII letters,
// digits, "_" and "-", a letter or "_" first), else a name made from it
// deterministically: every other character replaced by "_", a "_" put first
// when needed, and when that is too long or taken, cut and ended with "_" and
// eight hex digits of the name's SHA-256. The result maps every function name.
func Names(doc *document.OpenTool) map[string]string {
	out := make(map[string]string, len(doc.Functions))
	taken := make(map[string]bool, len(doc.Functions))
	for i := range doc.Functions {
		if n := doc.Functions[i].Name; fitsEveryProvider(n) {
			out[n] = n
			taken[n] = true
		}
	}
	for i := range doc.Functions {
		n := doc.Functions[i].Name
		if _, ok := out[n]; ok {
			continue
		}
		d := sanitizeToolName(n)
		if len(d) > 64 || taken[d] {
			sum := sha256.Sum256([]byte(n))
			suffix := "_" + hex.EncodeToString(sum[:4])
			if len(d) > 64-len(suffix) {
				d = d[:64-len(suffix)]
			}
			d += suffix
			for k := 2; taken[d]; k++ { // two names with one hash prefix: never seen, but stay unique
				d = d[:len(d)-len(strconv.Itoa(k-1))] + strconv.Itoa(k)
			}
		}
		out[n] = d
		taken[d] = true
	}
	return out
}

func fitsEveryProvider(n string) bool {
	// Gemini's rule on top of the OpenTool one: a letter or "_" first.
	return document.IsFunctionName(n) && n[0] != '-' && (n[0] < '0' || n[0] > '9')
}

func sanitizeToolName(n string) string {
	var b strings.Builder
	for _, r := range n {
		switch {
		case r == '_' || r == '-', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || s[0] == '-' || ('0' <= s[0] && s[0] <= '9') {
		s = "_" + s
	}
	return s
}
