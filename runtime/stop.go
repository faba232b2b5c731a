package runtime

// POST {prefix}/stop, of OpenTool 2.0 (the Dart reference SDK 2.0.0 and the
// OpenTool daemon, which sends it before it stops or deletes a tool).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// WithNoRemoteStop leaves POST {prefix}/stop out: it is answered HTTP 404,
// as an unknown route, for a server that must not be stopped over HTTP.
func WithNoRemoteStop() ServerOption { return func(c *serverConfig) { c.noStop = true } }

// WithStopFunc makes POST {prefix}/stop call stop (once, whatever the number
// of requests) once its answer is written, instead of stopping the server
// that serves the handler: for a handler that [Serve], [ServeListener] and
// [ServeHandler] do not serve directly, or whose server stops in its own way
// (package toolcli's start drains first, as on SIGTERM). stop must return
// at once; the server's shutdown is up to it.
func WithStopFunc(stop func()) ServerOption {
	return func(c *serverConfig) {
		var once sync.Once
		c.onStop = func() { once.Do(stop) }
	}
}

// Status is the answer of POST /stop: {"status":"stopped"}.
type Status struct {
	Status string `json:"status"`
}

// StatusStopped is the status POST /stop answers.
const StatusStopped = "stopped"

var stoppedBody = []byte(`{"status":"stopped"}`)

// stopKey is the key of the stop function of the server a request came
// through (serve puts it in the base context of its requests).
type stopKey struct{}

// withStop returns ctx with a stop function for the handlers of the server
// it is the base context of, and the channel that stop closes.
func withStop(ctx context.Context) (context.Context, <-chan struct{}) {
	stopped := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(stopped) }) }
	return context.WithValue(ctx, stopKey{}, stop), stopped
}

// serveStop answers POST /stop: {"status":"stopped"}, then the server stops
// as when the context of [Serve] ends (calls under way complete within the
// grace period). The API keys, when there are some, were checked before, as
// for every route; without them only a peer on this machine (a loopback
// address) may stop the server, and not from a web page of another origin.
func (h *handler) serveStop(w http.ResponseWriter, r *http.Request) {
	if h.cfg.noStop {
		h.writeHTTPError(w, http.StatusNotFound, "not found: "+r.URL.Path+" (this server is not stopped over HTTP)")
		return
	}
	if !h.method(w, r, http.MethodPost) {
		return
	}
	stop := h.cfg.onStop
	if stop == nil {
		stop, _ = r.Context().Value(stopKey{}).(func())
	}
	if stop == nil {
		h.writeHTTPError(w, http.StatusNotFound, "not found: "+r.URL.Path+" (the handler has no server to stop: see runtime.WithStopFunc)")
		return
	}
	if len(h.cfg.keys) == 0 {
		if msg := stopRefusal(r); msg != "" {
			h.writeHTTPError(w, http.StatusForbidden, msg)
			return
		}
	}
	h.cfg.logger.Info("opentool: stopping, as POST /stop asked", "peer", r.RemoteAddr)
	w.Header().Set("Connection", "close")
	writeJSON(w, http.StatusOK, stoppedBody)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	stop()
}

// stopRefusal is why r may not stop a server that has no API keys, "" when
// it may: it must come from a loopback address, and, when it carries an
// Origin (a browser's request), from a page of the server's own origin.
func stopRefusal(r *http.Request) string {
	if !isLoopback(r.RemoteAddr) {
		return "forbidden: without API keys, /stop is served to this machine's own peers only"
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return "forbidden: /stop from a page of another origin (" + quote(o) + ")"
		}
	}
	return ""
}

// Stop asks the server to stop (POST /stop, OpenTool 2.0): it answers
// {"status":"stopped"}, then completes the calls under way and exits. A
// server that does not offer it answers HTTP 404 ([ErrNoAccess]); a wrong or
// missing API key is [ErrUnauthorized], as for every request.
func (c *Client) Stop(ctx context.Context) error {
	req, err := c.newRequest(ctx, http.MethodPost, c.base+"/stop", nil, "application/json")
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := c.readBody(resp)
	if err != nil {
		return err
	}
	if e := statusError(resp.StatusCode, body); e != nil {
		return e
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		_, err := decodeResponse(resp.StatusCode, body)
		return err
	}
	var s Status
	if json.Unmarshal(body, &s) != nil || s.Status != StatusStopped {
		return clientError(ClassResponseNull, resp.StatusCode, ErrResponseNull.Message+": /stop did not answer {\"status\":\"stopped\"}", httpStatusError(resp.StatusCode, body))
	}
	return nil
}
