package discover_test

import (
	"context"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

func TestTmpStrict(t *testing.T) {
	_, tool := mockTools(t)
	doc, _ := tool.Load(context.Background())
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.AnthropicStrict} {
		d, err := declare.Functions(doc, p)
		t.Logf("%s: %v warnings=%v\n%s", p, err, d.Warnings, d.Tools)
	}
}
