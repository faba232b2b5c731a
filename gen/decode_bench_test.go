package gen_test

import (
	"context"
	"testing"

	constraints "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-constraints"
)

// checkService answers every call of the constraints golden's Tool.
type checkService struct{}

func (checkService) Check(context.Context, constraints.CheckArgs) (constraints.CheckResult, error) {
	return constraints.CheckResult{}, nil
}

// checkArgs sets most optional members of the constraints golden's check
// (strings, integers and numbers with checks, enums, an object, arrays,
// maps) and leaves a few null.
var checkArgs = []byte(`{"text":"abc","code":"ABC","email":"a@b.co","id":"123e4567-e89b-12d3-a456-426614174000",` +
	`"count":5,"ratio":0.5,"step":10,"half":1.5,"tags":["a","b"],"attrs":{"k":"v"},"opts":{"a":true},` +
	`"day":"2024-01-01","short":"ab","level":2,"mode":"fast","list":["x","y","z"],"flag":true,` +
	`"anything":null,"never":null,"none":null}`)

// BenchmarkDecodeGenerated is a generated Tool's call whose time is mostly
// its generated decoder: the arguments of the constraints golden's check.
func BenchmarkDecodeGenerated(b *testing.B) {
	tool := must(constraints.NewTool(checkService{}))
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(checkArgs)))
	for b.Loop() {
		if _, err := tool.Call(ctx, "check", checkArgs); err != nil {
			b.Fatal(err)
		}
	}
}
