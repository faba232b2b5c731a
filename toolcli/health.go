package toolcli

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// DefaultDrainDelay is how long start keeps serving after SIGINT or SIGTERM,
// with /readyz answering 503, before it stops accepting connections, unless
// --drainDelay says otherwise (see [Command] and docs/server.md).
const DefaultDrainDelay = 5 * time.Second

// readyTimeout bounds a Command.Ready check made for one /readyz request.
const readyTimeout = 2 * time.Second

// health answers /healthz and /readyz for a server started by start, and
// marks every answer "Connection: close" while the server drains, so that a
// load balancer's kept-alive connections end cleanly after their request.
type health struct {
	draining atomic.Bool // set when the server is told to stop
	probed   atomic.Bool // /readyz was asked at least once
	ready    func(context.Context) error
	logger   *slog.Logger
	failing  atomic.Bool // the last Command.Ready check failed (logged once per change)
}

// wrap routes /healthz and /readyz to h, the rest to next.
func (h *health) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.draining.Load() {
			w.Header().Set("Connection", "close")
		}
		switch r.URL.Path {
		case "/healthz":
			h.answer(w, r, http.StatusOK, "ok")
		case "/readyz":
			h.probed.Store(true)
			h.readyz(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (h *health) readyz(w http.ResponseWriter, r *http.Request) {
	if h.draining.Load() {
		h.answer(w, r, http.StatusServiceUnavailable, "draining")
		return
	}
	if h.ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		err := h.ready(ctx)
		cancel()
		if h.failing.Swap(err != nil) != (err != nil) {
			if err != nil {
				h.logger.Warn("not ready", "error", err.Error())
			} else {
				h.logger.Info("ready again")
			}
		}
		if err != nil {
			// The reason is logged, not told: /readyz needs no API key.
			h.answer(w, r, http.StatusServiceUnavailable, "unavailable")
			return
		}
	}
	h.answer(w, r, http.StatusOK, "ready")
}

// answer writes {"status":STATUS} (GET; HEAD: the headers only); other
// methods are 405.
func (h *health) answer(w http.ResponseWriter, r *http.Request, code int, status string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body := `{"status":` + strconv.Quote(status) + "}\n"
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(code)
	if r.Method == http.MethodGet {
		_, _ = w.Write([]byte(body))
	}
}

// drain waits for ctx (SIGINT, SIGTERM) and then for the drain delay while
// the server goes on serving with /readyz at 503, and then calls stop (the
// server stops accepting connections and gives the calls in flight their
// grace period). The delay is skipped when nobody ever asked /readyz: no load
// balancer watches the server, and so nobody needs time to notice. It returns
// when done is closed.
func (h *health) drain(ctx context.Context, delay time.Duration, stop func(), done <-chan struct{}) {
	select {
	case <-ctx.Done():
	case <-done:
		return
	}
	h.draining.Store(true)
	if delay > 0 && h.probed.Load() {
		h.logger.Info("draining: /readyz answers 503; serving on until the load balancer notices", "drainDelay", delay)
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-done:
		}
	}
	stop()
}
