package decode

import (
	"errors"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// pathNode is a recursive argument type, decoded as generated code decodes it.
type pathNode struct {
	N *pathNode
	L []string
}

func decodePathNode(d *Decoder, x *pathNode) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "n":
			if !d.IsNull() {
				var v pathNode
				decodePathNode(d, &v)
				x.N = &v
			}
		case "l":
			if d.Array() {
				for d.NextItem() {
					var s string
					s, _ = d.String()
					x.L = append(x.L, s)
				}
			}
		default:
			d.Skip()
		}
	}
}

// nested returns {"n":{"n":…inner…}} with depth levels.
func nested(depth int, inner string) []byte {
	return []byte(strings.Repeat(`{"n":`, depth) + inner + strings.Repeat(`}`, depth))
}

// TestViolationsBounded: many violations deep in the arguments make an error
// of bounded size: at most maxViolations are listed, the last counts the
// others, and each path in the message is abbreviated.
func TestViolationsBounded(t *testing.T) {
	raw := nested(990, `{"l":[`+strings.Repeat("1,", 20000)+`1]}`)
	var v pathNode
	err := Value(raw, &v, decodePathNode)
	var e *runtime.Error
	if !errors.As(err, &e) {
		t.Fatalf("Value: %v, want an *Error", err)
	}
	vs := e.Violations()
	if len(vs) != maxViolations+1 {
		t.Fatalf("%d violations, want %d", len(vs), maxViolations+1)
	}
	if last := vs[len(vs)-1]; last != (runtime.Violation{Message: "19901 more violations not listed"}) {
		t.Errorf("last violation %+v", last)
	}
	if want := "/n" + strings.Repeat("/n", 989) + "/l/0"; vs[0].Path != want {
		t.Errorf("first path %.80q…, want the whole pointer", vs[0].Path)
	}
	if len(e.Message) > 40<<10 || len(e.Data) > 300<<10 {
		t.Errorf("error of %d bytes of message and %d of data for %d bytes of arguments", len(e.Message), len(e.Data), len(raw))
	}
	if !strings.Contains(e.Message, "invalid params: /n/n/n/n/…(984 more)…/n/n/l/0: got 1, want string;") {
		t.Errorf("message %.300q…", e.Message)
	}
}

// TestDeepViolationMessage: arguments nested past the Decoder's limit make a
// one-line message of readable length that shows both ends of the path.
func TestDeepViolationMessage(t *testing.T) {
	var v pathNode
	err := Value(nested(100000, "null"), &v, decodePathNode)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 1000 || !strings.Contains(msg, "invalid params: /n/n/n/n/…(993 more)…/n/n/n/n: arguments nested deeper than 1000 levels (data: ") {
		t.Errorf("message of %d bytes: %.400q", len(msg), msg)
	}
}
