// Package declaree2e tests the declarations of generated packages: the
// package's and the Tool's Declarations in every profile, and calls by the
// declared names of functions whose own names no provider takes.
package declaree2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	hostile "github.com/opentoolgen/opentoolgen/testdata/golden/hostile"
)

// svc answers the hostile document's functions.
type svc struct{}

func (svc) Client(context.Context, hostile.ClientArgs2) (hostile.Service, error) {
	return hostile.Service{Ok: true}, nil
}
func (svc) UserID(context.Context) ([]int64, error)            { return []int64{1}, nil }
func (svc) UserID2(context.Context, hostile.UserID2Args) error { return nil }
func (svc) X2fa(_ context.Context, a hostile.X2faArgs) (map[string]any, error) {
	return map[string]any{"got": a.Map}, nil
}
func (svc) Call(context.Context) error { return nil }
func (svc) AFunctionNameThatIsExactlySixtyFourCharactersLong00xx(context.Context, hostile.AFunctionNameThatIsExactlySixtyFourCharactersLong00xxArgs) (hostile.AFunctionNameThatIsExactlySixtyFourCharactersLong00xxResult, error) {
	return hostile.AFunctionNameThatIsExactlySixtyFourCharactersLong00xxResult{}, nil
}

// TestDeclaredNamesCall: "2fa" starts with a digit, which Gemini refuses, so
// every profile declares it as "_2fa"; the Tool answers a call of either name.
func TestDeclaredNamesCall(t *testing.T) {
	tool, err := hostile.NewTool(svc{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range declare.Profiles() {
		pkg, err := hostile.Declarations(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want, _ := declare.Functions(hostile.Document(), p)
		if !bytes.Equal(pkg.Tools, want.Tools) {
			t.Errorf("%s: the package's Declarations differ from declare.Functions of its Document", p)
		}
		served, err := tool.Declarations(p)
		if err != nil || !bytes.Equal(served.Tools, pkg.Tools) {
			t.Errorf("%s: the Tool's Declarations (no options) differ from the package's: %v", p, err)
		}
		if bytes.Contains(pkg.Tools, []byte(`"name":"2fa"`)) || !bytes.Contains(pkg.Tools, []byte(`"name":"_2fa"`)) {
			t.Errorf("%s: %s: want 2fa declared as _2fa", p, pkg.Tools)
		}
		if pkg.Names["_2fa"] != "2fa" {
			t.Errorf("%s: Names %v", p, pkg.Names)
		}
	}
	for _, name := range []string{"2fa", "_2fa"} {
		raw, err := tool.Call(t.Context(), name, json.RawMessage(`{"map":{"k":1}}`))
		if err != nil || string(raw) != `{"got":{"k":1}}` {
			t.Errorf("Call(%q) = %s, %v", name, raw, err)
		}
	}
	// Not served: neither name.
	narrow, err := hostile.NewTool(svc{}, toolopt.WithFunctions("user_id"))
	if err != nil {
		t.Fatal(err)
	}
	var e *runtime.Error
	for _, name := range []string{"2fa", "_2fa"} {
		if _, err := narrow.Call(t.Context(), name, nil); !errors.As(err, &e) || e.Code != runtime.CodeMethodNotFound {
			t.Errorf("Call(%q), not served: %v", name, err)
		}
	}
}
