package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/webhook"
	callbacks "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-callbacks"
	hooks "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-webhooks"
)

// petHooks is a receiver of testdata/golden/openapi-webhooks that records
// what it is given.
type petHooks struct {
	mu     sync.Mutex
	events []any
}

func (h *petHooks) add(e any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e)
}

func (h *petHooks) last() any {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.events) == 0 {
		return nil
	}
	return h.events[len(h.events)-1]
}

func (h *petHooks) PetCreated(_ context.Context, e hooks.PetCreatedEvent) error {
	if e.Body.Name == "crash" {
		return errors.New("the store is down")
	}
	h.add(e)
	return nil
}
func (h *petHooks) PetSold(_ context.Context, e hooks.PetSoldEvent) error       { h.add(e); return nil }
func (h *petHooks) Ping(context.Context) error                                  { h.add("ping"); return nil }
func (h *petHooks) Repository(_ context.Context, e hooks.RepositoryEvent) error { h.add(e); return nil }
func (h *petHooks) Note(_ context.Context, e hooks.NoteEvent) error             { h.add(e); return nil }

func (h *petHooks) EvilFuncInitPanic1(_ context.Context, e hooks.EvilFuncInitPanic1Event) error {
	h.add(e)
	return nil
}
func (h *petHooks) StatusPut(context.Context) error  { h.add("put"); return nil }
func (h *petHooks) StatusPost(context.Context) error { h.add("post"); return nil }

var _ hooks.Webhooks = (*petHooks)(nil)

const hookSecret = "whsec_" + "cGV0LXN0b3JlLXNpZ25pbmcta2V5" // base64 of "pet-store-signing-key"

// send posts body to url with header and returns the status and body.
func send(t *testing.T, url string, h http.Header, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestWebhookReceiver(t *testing.T) {
	recv := &petHooks{}
	h, err := hooks.NewWebhookHandler(recv, webhook.WithSecret(hookSecret), webhook.WithLogf(func(string, ...any) {}))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/hooks/", http.StripPrefix("/hooks", h))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	std, err := webhook.NewStandard(hookSecret)
	if err != nil {
		t.Fatal(err)
	}
	gh, _ := webhook.NewGitHub(hookSecret)
	n := 0
	signed := func(body string, extra ...string) http.Header {
		n++
		hd := std.Header(fmt.Sprintf("msg_%d", n), time.Now(), []byte(body))
		for i := 0; i+1 < len(extra); i += 2 {
			hd.Set(extra[i], extra[i+1])
		}
		return hd
	}

	pet := `{"id":7,"name":"Rex","status":"available"}`
	first := signed(pet, "X-Attempt", "2")
	if st, b := send(t, srv.URL+"/hooks/newPet", first, pet); st != 200 {
		t.Fatalf("newPet: %d %s", st, b)
	}
	got, ok := recv.last().(hooks.PetCreatedEvent)
	if !ok || got.Body.ID != 7 || got.Body.Name != "Rex" || got.Body.Status == nil || *got.Body.Status != hooks.PetStatusAvailable ||
		got.XAttempt == nil || *got.XAttempt != 2 || got.WebhookID != first.Get("Webhook-Id") {
		t.Fatalf("PetCreated got %+v", recv.last())
	}
	if st, _ := send(t, srv.URL+"/hooks/newPet", first, pet); st != http.StatusConflict {
		t.Errorf("replay: %d, want 409", st)
	}

	sold := `{"id":7,"price":12.5,"channel":"shop"}`
	if st, b := send(t, srv.URL+"/hooks/petSold", signed(sold), sold); st != 204 {
		t.Errorf("petSold: %d %s", st, b)
	} else if e, ok := recv.last().(hooks.PetSoldEvent); !ok || e.Body.Price != 12.5 || e.Body.ID != 7 {
		t.Errorf("PetSold got %+v", recv.last())
	}
	if st, _ := send(t, srv.URL+"/hooks/ping", signed(""), ""); st != 204 || recv.last() != "ping" {
		t.Errorf("ping: %d, %v", st, recv.last())
	}
	push := `{"ref":"refs/heads/main"}`
	ghh := http.Header{}
	ghh.Set("X-Hub-Signature-256", gh.Sign([]byte(push)))
	ghh.Set("X-GitHub-Delivery", "d-1")
	if st, b := send(t, srv.URL+"/hooks/repository", ghh, push); st != 204 {
		t.Errorf("repository (GitHub): %d %s", st, b)
	} else if e, ok := recv.last().(hooks.RepositoryEvent); !ok || e.Body.Ref == nil || *e.Body.Ref != "refs/heads/main" {
		t.Errorf("Repository got %+v", recv.last())
	}
	if st, b := send(t, srv.URL+"/hooks/note", signed("hello"), "hello"); st != 204 {
		t.Errorf("note: %d %s", st, b)
	} else if e, ok := recv.last().(hooks.NoteEvent); !ok || e.Body != "hello" {
		t.Errorf("Note got %+v", recv.last())
	}

	if st, b := send(t, srv.URL+"/hooks/status.post", signed(""), ""); st != 204 || recv.last() != "post" {
		t.Errorf("status.post: %d %s %v", st, b, recv.last())
	}
	if st, _ := send(t, srv.URL+"/hooks/status.put", signed(""), ""); st != 405 {
		t.Errorf("POST to the PUT event: %d, want 405", st)
	}
	hostile := `{"a\"b":"x"}`
	if st, b := send(t, srv.URL+"/hooks/evil_name_go_generate_rm_-rf", signed(hostile), hostile); st != 204 {
		t.Errorf("hostile names: %d %s", st, b)
	} else if e, ok := recv.last().(hooks.EvilFuncInitPanic1Event); !ok || e.Body.AB == nil || *e.Body.AB != "x" {
		t.Errorf("hostile event got %+v", recv.last())
	}

	before := len(recv.events)
	long := strings.Repeat("x", 101)
	for _, tc := range []struct {
		name, path string
		h          http.Header
		body       string
		status     int
		mention    string // in the error's text
	}{
		{"unsigned", "/hooks/newPet", nil, pet, 401, "unsigned"},
		{"wrong secret", "/hooks/newPet", func() http.Header {
			o, _ := webhook.NewStandard("whsec_b3RoZXI=")
			return o.Header("msg_x", time.Now(), []byte(pet))
		}(), pet, 401, "no signature matches"},
		{"old", "/hooks/newPet", std.Header("msg_old", time.Now().Add(-time.Hour), []byte(pet)), pet, 401, "tolerance"},
		{"GitHub signature on a standard event", "/hooks/newPet", ghh, pet, 401, ""},
		{"standard signature on a GitHub event", "/hooks/repository", signed(push), push, 401, ""},
		{"missing name", "/hooks/newPet", signed(`{"id":1}`), `{"id":1}`, 400, "/body/name"},
		{"empty name", "/hooks/newPet", signed(`{"id":1,"name":""}`), `{"id":1,"name":""}`, 400, "/body/name"},
		{"bad enum", "/hooks/newPet", signed(`{"id":1,"name":"a","status":"lost"}`), `{"id":1,"name":"a","status":"lost"}`, 400, "/body/status"},
		{"attempt not a number", "/hooks/newPet", signed(pet, "X-Attempt", "two"), pet, 400, "/X-Attempt"},
		{"attempt under its minimum", "/hooks/newPet", signed(pet, "X-Attempt", "0"), pet, 400, "/X-Attempt"},
		{"no body", "/hooks/newPet", signed(""), "", 400, "body"},
		{"price not positive", "/hooks/petSold", signed(`{"id":1,"price":0}`), `{"id":1,"price":0}`, 400, "/body/price"},
		{"note too long", "/hooks/note", signed(long), long, 400, "/body"},
		{"not JSON", "/hooks/newPet", signed(`{"id":`), `{"id":`, 400, "JSON"},
		{"deep", "/hooks/newPet", signed(strings.Repeat("[", 50000)), strings.Repeat("[", 50000), 400, ""},
		{"array", "/hooks/newPet", signed(`[1,2]`), `[1,2]`, 400, "/body"},
		{"no such event", "/hooks/nope", signed(pet), pet, 404, ""},
		{"the method fails", "/hooks/newPet", signed(`{"id":1,"name":"crash"}`), `{"id":1,"name":"crash"}`, 500, ""},
	} {
		st, b := send(t, srv.URL+tc.path, tc.h, tc.body)
		if st != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, st, b, tc.status)
			continue
		}
		var e struct{ Error string }
		if json.Unmarshal([]byte(b), &e) != nil || !strings.Contains(e.Error, tc.mention) {
			t.Errorf("%s: body %s does not mention %q", tc.name, b, tc.mention)
		}
		if strings.Contains(b, "store is down") {
			t.Errorf("%s: the method's error reached the sender", tc.name)
		}
	}
	if len(recv.events) != before {
		t.Errorf("refused events reached the receiver: %v", recv.events[before:])
	}
	if _, err := hooks.NewWebhookHandler(recv); err == nil {
		t.Error("a handler without a secret was made")
	}
}

// payments is a receiver of testdata/golden/openapi-callbacks.
type payments struct{ got []any }

func (p *payments) OnPaymentSucceeded(_ context.Context, e callbacks.OnPaymentSucceededEvent) error {
	p.got = append(p.got, e)
	return nil
}
func (p *payments) Refund(_ context.Context, e callbacks.RefundEvent) error {
	p.got = append(p.got, e)
	return nil
}
func (p *payments) Refund2(_ context.Context, e callbacks.Refund2Event) error {
	p.got = append(p.got, e)
	return nil
}

func TestCallbackReceiver(t *testing.T) {
	recv := &payments{}
	h, err := callbacks.NewWebhookHandler(recv, webhook.WithSecret(hookSecret))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	stripe, _ := webhook.NewStripe(hookSecret)
	std, err := webhook.NewStandard(hookSecret)
	if err != nil {
		t.Fatal(err)
	}
	pay := `{"id":"pay_1","amount":1200,"currency":"eur"}`
	sh := http.Header{}
	sh.Set("Stripe-Signature", stripe.Sign(time.Now(), []byte(pay)))
	if st, b := send(t, srv.URL+"/paymentSucceeded", sh, pay); st != 200 {
		t.Fatalf("paymentSucceeded: %d %s", st, b)
	}
	if e, ok := recv.got[0].(callbacks.OnPaymentSucceededEvent); !ok || e.Body.Amount != 1200 || e.Body.Currency != "eur" || e.StripeSignature != sh.Get("Stripe-Signature") {
		t.Fatalf("OnPaymentSucceeded got %+v", recv.got[0])
	}
	if st, _ := send(t, srv.URL+"/paymentSucceeded", sh, pay); st != 409 {
		t.Errorf("Stripe replay: %d, want 409", st)
	}
	bad := `{"id":"pay_2","amount":1,"currency":"EUR"}`
	sh.Set("Stripe-Signature", stripe.Sign(time.Now(), []byte(bad)))
	if st, b := send(t, srv.URL+"/paymentSucceeded", sh, bad); st != 400 || !strings.Contains(b, "/body/currency") {
		t.Errorf("currency against its pattern: %d %s", st, b)
	}
	sh.Set("Stripe-Signature", stripe.Sign(time.Now().Add(-10*time.Minute), []byte(pay)))
	if st, _ := send(t, srv.URL+"/paymentSucceeded", sh, pay); st != 401 {
		t.Errorf("old Stripe signature: %d, want 401", st)
	}
	refund := `{"payment":"pay_1","amount":200}`
	if st, b := send(t, srv.URL+"/refund", std.Header("msg_r", time.Now(), []byte(refund)), refund); st != 202 {
		t.Errorf("refund: %d %s", st, b)
	} else if e, ok := recv.got[len(recv.got)-1].(callbacks.RefundEvent); !ok || e.Body.Amount != 200 || e.Body.Payment != "pay_1" {
		t.Errorf("Refund got %+v", recv.got[len(recv.got)-1])
	}
	if len(recv.got) != 2 {
		t.Errorf("received %d events, want 2", len(recv.got))
	}
}

// An agent waits for events over the OpenTool protocol: the tool of the
// webhooks golden package gains wait_<event> functions fed by the receiver.
func TestWebhookWaitFunctions(t *testing.T) {
	feed := webhook.NewFeed()
	recv := &petHooks{}
	h, err := hooks.NewWebhookHandler(hooks.NewWebhookFeed(feed, recv), webhook.WithSecret(hookSecret))
	if err != nil {
		t.Fatal(err)
	}
	hookSrv := httptest.NewServer(h)
	defer hookSrv.Close()
	tool, err := hooks.NewTool(must(hooks.NewClient("http://127.0.0.1:1")))
	if err != nil {
		t.Fatal(err)
	}
	toolSrv := httptest.NewServer(runtime.NewHandler(webhook.WaitTool(tool, feed, hooks.WebhookEvents)))
	defer toolSrv.Close()
	client := runtime.NewClient(toolSrv.URL + "/opentool")

	doc, err := client.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var wait *document.Function
	for i := range doc.Functions {
		if doc.Functions[i].Name == "wait_newPet" {
			wait = &doc.Functions[i]
		}
	}
	if wait == nil || wait.Stream == nil || wait.Stream["data"].Schema.Properties.Get("body") == nil {
		t.Fatalf("wait_newPet not declared with the event's schema: %+v", wait)
	}

	std, err := webhook.NewStandard(hookSecret)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		// The feed tells no one of a new waiter: poll, with a deadline.
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for deadline := time.Now().Add(20 * time.Second); feed.Waiting("newPet") == 0; <-tick.C {
			if time.Now().After(deadline) {
				t.Error("wait_newPet did not wait on the feed")
				return
			}
		}
		for i, name := range []string{"Rex", "Tom"} {
			body := fmt.Sprintf(`{"id":%d,"name":%q}`, i+1, name)
			if code, b := send(t, hookSrv.URL+"/newPet", std.Header(fmt.Sprint("w", i), time.Now(), []byte(body)), body); code/100 != 2 {
				t.Errorf("the %s event: HTTP %d %s", name, code, b)
			}
		}
	}()
	var names []string
	for r, err := range client.StreamFunction(context.Background(), "wait_newPet", json.RawMessage(`{"count":2,"timeout_seconds":20}`)) {
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Event hooks.PetCreatedEvent `json:"event"`
		}
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		names = append(names, v.Event.Body.Name)
	}
	if strings.Join(names, ",") != "Rex,Tom" {
		t.Fatalf("waited for %v, want Rex,Tom", names)
	}
	// Call collects; a timeout ends it with what came (nothing).
	r, err := client.CallFunction(context.Background(), "wait_ping", json.RawMessage(`{"timeout_seconds":1}`))
	if err != nil || string(r) != `{"events":[]}` {
		t.Fatalf("wait_ping: %s %v", r, err)
	}
	if _, err := client.CallFunction(context.Background(), "wait_ping", json.RawMessage(`{"count":0}`)); err == nil {
		t.Fatal("count 0 accepted")
	}
}

// TestNilServiceAndReceiver: a nil Service or receiver is refused when the
// Tool or handler is made, with an error naming it, not a panic per call.
func TestNilServiceAndReceiver(t *testing.T) {
	if tool, err := hooks.NewTool(nil); err == nil || tool != nil || !strings.Contains(err.Error(), "openapiwebhooks.NewTool: svc is nil") {
		t.Errorf("NewTool(nil) = %v, %v; want an error naming svc", tool, err)
	}
	if h, err := hooks.NewWebhookHandler(nil, webhook.WithoutVerification()); err == nil || h != nil || !strings.Contains(err.Error(), "recv is nil") {
		t.Errorf("NewWebhookHandler(nil) = %v, %v; want an error naming recv", h, err)
	}
	// A feed without a receiver of its own is a receiver.
	if _, err := hooks.NewWebhookHandler(hooks.NewWebhookFeed(webhook.NewFeed(), nil), webhook.WithoutVerification()); err != nil {
		t.Errorf("NewWebhookHandler(NewWebhookFeed(feed, nil)): %v", err)
	}
}
