package toolcli_test

import (
	"context"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// waitLong bounds every wait of the tests: long enough for a loaded machine,
// short enough that a hang fails the test instead of the run.
const waitLong = testtool.WaitLong

// newStore is a store holding texts under the ids 0, 1, …, whose Run blocks
// until its context ends.
func newStore(texts ...mocktool.Text) *testtool.Store {
	s := testtool.NewStore(texts...)
	s.Blocking = true
	return s
}

// mockCommand is the command of the mock tool served from s.
func mockCommand(s *testtool.Store) *toolcli.Command {
	return &toolcli.Command{
		Name:     "mock_util_tool",
		Document: mocktool.Document(),
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			return mocktool.NewTool(s, opts...)
		},
	}
}
