package intercept

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// The Call a front makes with the context of a call (WithServedCall) goes
// to the first call made with that context that asks (ServedCall), whole;
// the calls made with the same context at the same time, or after, get
// their own, with the same incoming metadata.
func TestServedCallTakenOnce(t *testing.T) {
	ctx := WithServedCall(context.Background(), "test", HeaderMetadata(http.Header{"X-Key": {"v"}}), "7")
	taken := ctx.(*incomingContext).call
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	calls := make([]*Call, len(names))
	var wg sync.WaitGroup
	for i, f := range names {
		wg.Go(func() { calls[i] = ServedCall(ctx, f, json.RawMessage(`{"f":"`+f+`"}`), false) })
	}
	wg.Wait()
	owners := 0
	for i, call := range calls {
		f := names[i]
		if call.Function != f || call.Front != "test" || !call.Server || call.Meta.Get("X-Key") != "v" ||
			call.RequestID != "7" || string(call.Args) != `{"f":"`+f+`"}` {
			t.Errorf("%s: call %+v", f, call)
		}
		if call == taken {
			owners++
		}
	}
	if owners != 1 {
		t.Fatalf("%d calls with the context's Call, want 1", owners)
	}
}
