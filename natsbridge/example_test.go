package natsbridge_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// A generated tool served on an embedded NATS server, and its typed client
// calling it over NATS.
func Example() {
	ctx := context.Background()
	ns, _ := natsbridge.StartEmbedded(0) // 127.0.0.1, a free port
	defer ns.Shutdown()
	nc, _ := nats.Connect(ns.ClientURL())
	defer nc.Close()

	tool, _ := mocktool.NewTool(testtool.NewStore("hello"))
	svc, _ := natsbridge.NewService(ctx, nc, tool) // crud_api_for_mock.read, …
	defer svc.Shutdown(ctx)

	c := mocktool.NewClient(natsbridge.NewCaller(nc, svc.Prefix()))
	text, err := c.Read(ctx, mocktool.ReadArgs{ID: 0})
	fmt.Println(svc.Prefix(), text, err)
	_, err = c.Read(ctx, mocktool.ReadArgs{ID: 7})
	var e *runtime.Error
	fmt.Println(errors.As(err, &e), e.Code)
	// Output:
	// crud_api_for_mock hello <nil>
	// true 404
}
