package emit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestStringPieces: strings written in pieces are what encoding/json writes
// whole, runes across the pieces' ends included.
func TestStringPieces(t *testing.T) {
	for _, s := range []string{
		"",
		"plain",
		"<&> \u2028\u2029 \x00\x1f\b\f\n\r\t \"\\ é 😀 \ufeff `",
		"bad \xff\xfe utf-8 \xe2\x82",
		strings.Repeat("é", 40000) + strings.Repeat("😀", 20000) + "\xff" + strings.Repeat("a", 70000),
		strings.Repeat("a", jsonPiece-1) + "😀" + strings.Repeat("\x80", 10) + strings.Repeat("b", jsonPiece),
	} {
		var b bytes.Buffer
		if err := encodeJSONString(&b, s); err != nil {
			t.Fatal(err)
		}
		if want, _ := json.Marshal(s); !bytes.Equal(b.Bytes(), want) {
			t.Errorf("encodeJSONString(%.40q…) differs from json.Marshal", s)
		}
	}
}
