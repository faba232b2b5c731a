package decode

import (
	"bytes"
	"encoding/json"
)

// emptyObject is the arguments object of a call without arguments.
var emptyObject = json.RawMessage("{}")

// isNull reports whether raw is empty or the JSON null.
func isNull(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// writeJSONString writes s as a JSON string, as json.Marshal does (HTML
// characters escaped), without its allocation when s needs no escaping.
func writeJSONString(buf *bytes.Buffer, s string) {
	simple := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			simple = false
			break
		}
	}
	if simple {
		buf.WriteByte('"')
		buf.WriteString(s)
		buf.WriteByte('"')
		return
	}
	b, _ := json.Marshal(s)
	buf.Write(b)
}
