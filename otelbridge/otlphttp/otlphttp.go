// Package otlphttp exports spans, those of the OpenTelemetry SDK
// (sdktrace.SpanExporter's ExportSpans) and those of otelbridge/tracing
// (tracing.Exporter's Export), with OTLP over HTTP in binary protobuf ("http/protobuf", the OTLP specification's default
// protocol), encoded with the standard library alone: a command that links
// it links neither gRPC nor the protobuf runtime and the generated OTLP
// types (about 11 MB of a generated server command with the upstream
// otlptracehttp exporter; see docs/benchmarks/cluster.md).
//
// [New] reads the standard variables, the signal-specific one first:
//
//	OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   the URL spans are posted to, as is
//	OTEL_EXPORTER_OTLP_ENDPOINT          a base URL: spans go to BASE/v1/traces
//	                                     (default http://localhost:4318)
//	OTEL_EXPORTER_OTLP_[TRACES_]HEADERS  k=v pairs, comma-separated, values URL-decoded
//	OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT  milliseconds per export, retries included (default 10000)
//	OTEL_EXPORTER_OTLP_[TRACES_]COMPRESSION  gzip or none (default none)
//	OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE  PEM file of the CAs to trust
//	OTEL_EXPORTER_OTLP_[TRACES_]CLIENT_CERTIFICATE, …_CLIENT_KEY  PEM files for mutual TLS
//	OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL  http/protobuf (the default); grpc and
//	                                     http/json are refused with an error saying so
//
// An export answered 429, 502, 503 or 504 is retried with a growing delay
// (or the answer's Retry-After) until the timeout; any other status other
// than 2xx fails the export with the status and the start of the answer.
package otlphttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

// Defaults of the exporter.
const (
	DefaultEndpoint = "http://localhost:4318"
	DefaultTimeout  = 10 * time.Second
	tracesPath      = "/v1/traces"
)

// Exporter posts spans to an OTLP/HTTP receiver. It is an
// sdktrace.SpanExporter (give it to sdktrace.WithBatcher) and a
// tracing.Exporter (give it to tracing.NewProvider).
type Exporter struct {
	url     string
	headers http.Header
	gzip    bool
	timeout time.Duration
	client  *http.Client

	mu      sync.RWMutex
	stopped bool
}

var (
	_ sdktrace.SpanExporter = (*Exporter)(nil)
	_ tracing.Exporter      = (*Exporter)(nil)
)

// New returns the exporter the environment configures (see the package
// doc), or an error naming the variable that is wrong.
func New() (*Exporter, error) {
	e := &Exporter{timeout: DefaultTimeout, headers: http.Header{}}
	if p := env("PROTOCOL"); p != "" && p != "http/protobuf" {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%s: this command exports with http/protobuf only", p)
	}
	if u := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); u != "" {
		e.url = u
	} else {
		base := os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
		if base == "" {
			base = DefaultEndpoint
		}
		e.url = strings.TrimRight(base, "/") + tracesPath
	}
	if u, err := url.Parse(e.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("OTLP endpoint %q: want an http or https URL", e.url)
	}
	if h := env("HEADERS"); h != "" {
		for _, pair := range strings.Split(h, ",") {
			k, v, ok := strings.Cut(pair, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: %q is not key=value", pair)
			}
			if dv, err := url.QueryUnescape(strings.TrimSpace(v)); err == nil {
				v = dv
			}
			e.headers.Add(k, strings.TrimSpace(v))
		}
	}
	if t := env("TIMEOUT"); t != "" {
		ms, err := strconv.Atoi(t)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT=%s: want milliseconds", t)
		}
		e.timeout = time.Duration(ms) * time.Millisecond
	}
	switch c := env("COMPRESSION"); c {
	case "", "none":
	case "gzip":
		e.gzip = true
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_COMPRESSION=%s: want gzip or none", c)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg, err := tlsConfig(); err != nil {
		return nil, err
	} else if cfg != nil {
		tr.TLSClientConfig = cfg
	}
	e.client = &http.Client{Transport: tr}
	return e, nil
}

// env is OTEL_EXPORTER_OTLP_TRACES_name, else OTEL_EXPORTER_OTLP_name.
func env(name string) string {
	if v := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_" + name); v != "" {
		return strings.TrimSpace(v)
	}
	return strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_" + name))
}

func tlsConfig() (*tls.Config, error) {
	ca, cert, key := env("CERTIFICATE"), env("CLIENT_CERTIFICATE"), env("CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE: %s holds no PEM certificate", ca)
		}
	}
	if cert != "" || key != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and _CLIENT_KEY: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// URL is where the exporter posts spans.
func (e *Exporter) URL() string { return e.url }

// ExportSpans posts spans of the SDK in one request, retrying as the
// package doc says.
func (e *Exporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.stopped || len(spans) == 0 {
		return nil
	}
	return e.send(ctx, encodeRequest(spans))
}

// Export posts spans of otelbridge/tracing in one request, retrying as the
// package doc says.
func (e *Exporter) Export(ctx context.Context, spans []tracing.ReadOnlySpan) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.stopped || len(spans) == 0 {
		return nil
	}
	return e.send(ctx, encodeRequest(spans))
}

// send posts body, an encoded request, retrying as the package doc says.
func (e *Exporter) send(ctx context.Context, body []byte) error {
	if e.gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body)
		zw.Close()
		body = buf.Bytes()
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	delay := 100 * time.Millisecond
	for {
		retry, wait, err := e.post(ctx, body)
		if !retry {
			return err
		}
		if wait <= 0 {
			wait, delay = delay, min(2*delay, 5*time.Second)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("otlphttp: %w (last: %v)", ctx.Err(), err)
		}
	}
}

// post sends body once: whether to retry, after how long (0: the backoff's
// delay), and the error.
func (e *Exporter) post(ctx context.Context, body []byte) (bool, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return false, 0, fmt.Errorf("otlphttp: %w", err)
	}
	for k, vs := range e.headers {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if e.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return ctx.Err() == nil, 0, fmt.Errorf("otlphttp: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 == 2 {
		return false, 0, nil
	}
	err = fmt.Errorf("otlphttp: %s answered %s: %q", e.url, resp.Status, bytes.TrimSpace(answer))
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		var wait time.Duration
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = time.Duration(s) * time.Second
		}
		return true, wait, err
	}
	return false, 0, err
}

// Shutdown stops the exporter: later exports do nothing.
func (e *Exporter) Shutdown(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stopped = true
	e.client.CloseIdleConnections()
	return nil
}
