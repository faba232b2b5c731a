package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// WriteString writes s as a JSON string, as json.Marshal does (HTML
// characters escaped), without its allocation when s needs no escaping.
func WriteString(buf *bytes.Buffer, s string) {
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

// IsNull reports whether raw is empty or the JSON null.
func IsNull(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// IsObject reports whether raw (already known to be valid JSON) is an
// object.
func IsObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
