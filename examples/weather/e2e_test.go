package weather_test

// End to end: the generated weathertool.Client calls the generated server
// adapter (weathertool.NewTool) over a real loopback listener, for every
// function and every error class a caller can meet.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

// service implements weathertool.Service. By default it answers with the
// arguments it received, so that a test sees exactly what arrived; a test
// replaces either method with its own function.
type service struct {
	current  func(context.Context, weathertool.GetCurrentWeatherArgs) (string, error)
	forecast func(context.Context, weathertool.GetNDayWeatherForecastArgs) (string, error)
}

func (s *service) GetCurrentWeather(ctx context.Context, args weathertool.GetCurrentWeatherArgs) (string, error) {
	if s.current != nil {
		return s.current(ctx, args)
	}
	return fmt.Sprintf("current %q %s", args.CurrentWeatherInfo.Location, args.CurrentWeatherInfo.Format), nil
}

func (s *service) GetNDayWeatherForecast(ctx context.Context, args weathertool.GetNDayWeatherForecastArgs) (string, error) {
	if s.forecast != nil {
		return s.forecast(ctx, args)
	}
	a := args.ForecastWeatherInfo
	return fmt.Sprintf("forecast %q %s %d", a.Location, a.Format, a.NumDays), nil
}

// serve serves svc on a fresh loopback port until the test ends, and returns
// the base URL. It checks that the server shuts down cleanly.
func serve(t *testing.T, svc weathertool.Service, opts ...runtime.ServerOption) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeListener(ctx, ln, must(weathertool.NewTool(svc)), opts...) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeListener: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + runtime.DefaultPrefix
}

// newClient returns a generated client and its runtime client for url, with an
// HTTP transport of their own whose idle connections close when the test ends,
// before the server stops: net/http's graceful shutdown waits up to 5 seconds for
// a connection the client dialed but never sent a request on.
func newClient(t *testing.T, url string, opts ...runtime.ClientOption) (*weathertool.Client, *runtime.Client) {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	opts = append([]runtime.ClientOption{runtime.WithHTTPClient(&http.Client{Transport: tr})}, opts...)
	rt := runtime.NewClient(url, opts...)
	return weathertool.NewClient(rt), rt
}

var (
	sanFrancisco = weathertool.GetCurrentWeatherArgs{CurrentWeatherInfo: weathertool.CurrentWeatherInfo{
		Location: "San Francisco, CA",
		Format:   weathertool.CurrentWeatherInfoFormatFahrenheit,
	}}
	zurich = weathertool.GetNDayWeatherForecastArgs{ForecastWeatherInfo: weathertool.ForecastWeatherInfo{
		Location: "Zürich \"ZH\" <&> \u2028 \\",
		Format:   weathertool.ForecastWeatherInfoFormatCelsius,
		NumDays:  1 << 40,
	}}
)

func TestCallEveryFunction(t *testing.T) {
	c, _ := newClient(t, serve(t, &service{}))
	ctx := t.Context()

	got, err := c.GetCurrentWeather(ctx, sanFrancisco)
	if err != nil {
		t.Fatal(err)
	}
	if want := `current "San Francisco, CA" fahrenheit`; got != want {
		t.Errorf("GetCurrentWeather = %q, want %q", got, want)
	}

	got, err = c.GetNDayWeatherForecast(ctx, zurich)
	if err != nil {
		t.Fatal(err)
	}
	if want := `forecast "Zürich \"ZH\" <&> \u2028 \\" celsius 1099511627776`; got != want {
		t.Errorf("GetNDayWeatherForecast = %q, want %q", got, want)
	}
}

// The typed arguments reach the service exactly as the client built them.
func TestArgumentsArriveIntact(t *testing.T) {
	var (
		mu     sync.Mutex
		gotCur weathertool.GetCurrentWeatherArgs
		gotFc  weathertool.GetNDayWeatherForecastArgs
	)
	svc := &service{
		current: func(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			gotCur = a
			return "", nil
		},
		forecast: func(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			gotFc = a
			return "", nil
		},
	}
	c, _ := newClient(t, serve(t, svc))
	if _, err := c.GetCurrentWeather(t.Context(), sanFrancisco); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetNDayWeatherForecast(t.Context(), zurich); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(sanFrancisco, gotCur); diff != "" {
		t.Errorf("get_current_weather arguments (-sent +received):\n%s", diff)
	}
	if diff := cmp.Diff(zurich, gotFc); diff != "" {
		t.Errorf("get_n_day_weather_forecast arguments (-sent +received):\n%s", diff)
	}
}

// asError returns err as a *runtime.Error, failing the test when it is not one.
func asError(t *testing.T, err error) *runtime.Error {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *runtime.Error", err, err)
	}
	return e
}

func TestToolErrors(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		wantCode int
		wantMsg  string
	}{
		{"plain error", errors.New("weather service unavailable"), 500, "weather service unavailable"},
		{"wrapped plain error", fmt.Errorf("fetching: %w", os.ErrDeadlineExceeded), 500, "fetching: i/o timeout"},
		{"*runtime.Error keeps its code", runtime.NewError(429, "too many requests"), 429, "too many requests"},
		{"wrapped *runtime.Error keeps its code", fmt.Errorf("upstream: %w", runtime.NewError(503, "try later")), 503, "try later"},
		{"runtime.Errorf", runtime.Errorf("no station near %q", "Atlantis"), 500, `no station near "Atlantis"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := &service{current: func(context.Context, weathertool.GetCurrentWeatherArgs) (string, error) {
				return "ignored", tt.err
			}}
			c, _ := newClient(t, serve(t, svc))
			got, err := c.GetCurrentWeather(t.Context(), sanFrancisco)
			if got != "" {
				t.Errorf("result = %q with an error, want \"\"", got)
			}
			if !errors.Is(err, runtime.ErrCall) {
				t.Fatalf("err = %v, want errors.Is(err, runtime.ErrCall)", err)
			}
			for _, other := range []error{runtime.ErrNoAccess, runtime.ErrUnauthorized, runtime.ErrResponseNull, runtime.ErrErrorNull} {
				if errors.Is(err, other) {
					t.Errorf("errors.Is(%v, %v) = true, want false", err, other)
				}
			}
			e := asError(t, err)
			if e.Code != tt.wantCode || e.Message != tt.wantMsg || e.Class != runtime.ClassCall {
				t.Errorf("error = {Code: %d, Message: %q, Class: %q}, want {%d, %q, %q}", e.Code, e.Message, e.Class, tt.wantCode, tt.wantMsg, runtime.ClassCall)
			}
			// Client errors are JSON-serialisable.
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var back runtime.Error
			if err := json.Unmarshal(b, &back); err != nil || back.Code != e.Code || back.Message != e.Message || back.Class != e.Class {
				t.Errorf("error JSON %s does not round-trip: %+v, %v", b, back, err)
			}
		})
	}
}

// A service that validates beyond the schema reports -32602 in the same shape
// as the generated validation.
func TestServiceInvalidParams(t *testing.T) {
	svc := &service{forecast: func(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
		return "", runtime.InvalidParams(runtime.Violation{Path: "/forecastWeatherInfo/num_days", Message: "got 0, want 1 to 16"})
	}}
	c, _ := newClient(t, serve(t, svc))
	args := zurich
	args.ForecastWeatherInfo.NumDays = 0
	_, err := c.GetNDayWeatherForecast(t.Context(), args)
	e := asError(t, err)
	want := []runtime.Violation{{Path: "/forecastWeatherInfo/num_days", Message: "got 0, want 1 to 16"}}
	if e.Code != runtime.CodeInvalidParams || !errors.Is(err, runtime.ErrCall) {
		t.Errorf("err = %v, want a -32602 call error", err)
	}
	if diff := cmp.Diff(want, e.Violations()); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// Arguments that do not match the document never reach the service: the
// server answers -32602 listing every violation with its JSON path.
func TestInvalidParams(t *testing.T) {
	called := make(chan string, 100)
	svc := &service{
		current: func(context.Context, weathertool.GetCurrentWeatherArgs) (string, error) {
			called <- "get_current_weather"
			return "", nil
		},
		forecast: func(context.Context, weathertool.GetNDayWeatherForecastArgs) (string, error) {
			called <- "get_n_day_weather_forecast"
			return "", nil
		},
	}
	_, rt := newClient(t, serve(t, svc))
	type v struct{ path, message string }
	const cur, fc = "get_current_weather", "get_n_day_weather_forecast"
	tests := []struct {
		name string
		fn   string
		args string // "" sends no params at all
		want []v
	}{
		{"no params", cur, "", []v{{"/currentWeatherInfo", "missing required member"}}},
		{"empty object", cur, `{}`, []v{{"/currentWeatherInfo", "missing required member"}}},
		{"null argument", cur, `{"currentWeatherInfo":null}`, []v{{"/currentWeatherInfo", "got null, want object"}}},
		{"string for object", cur, `{"currentWeatherInfo":"Paris"}`, []v{{"/currentWeatherInfo", `got "Paris", want object`}}},
		{"missing members", cur, `{"currentWeatherInfo":{}}`, []v{
			{"/currentWeatherInfo/location", "missing required member"},
			{"/currentWeatherInfo/format", "missing required member"},
		}},
		{"wrong type and enum", cur, `{"currentWeatherInfo":{"location":5,"format":"kelvin"}}`, []v{
			{"/currentWeatherInfo/location", "got 5, want string"},
			{"/currentWeatherInfo/format", `got "kelvin", want one of "celsius", "fahrenheit"`},
		}},
		{"enum is case-sensitive", cur, `{"currentWeatherInfo":{"location":"Paris","format":"Celsius"}}`, []v{
			{"/currentWeatherInfo/format", `got "Celsius", want one of "celsius", "fahrenheit"`},
		}},
		{"enum wrong type", cur, `{"currentWeatherInfo":{"location":"Paris","format":1}}`, []v{
			{"/currentWeatherInfo/format", "got 1, want string"},
		}},
		{"fraction for integer", fc, `{"forecastWeatherInfo":{"location":"Paris","format":"celsius","num_days":1.5}}`, []v{
			{"/forecastWeatherInfo/num_days", "got 1.5, want integer"},
		}},
		{"string for integer", fc, `{"forecastWeatherInfo":{"location":"Paris","format":"celsius","num_days":"3"}}`, []v{
			{"/forecastWeatherInfo/num_days", `got "3", want integer`},
		}},
		{"every member wrong, unknown members ignored", fc, `{"extra":1,"forecastWeatherInfo":{"location":[],"format":"kelvin","num_days":true,"extra":{}}}`, []v{
			{"/forecastWeatherInfo/location", "got array, want string"},
			{"/forecastWeatherInfo/format", `got "kelvin", want one of "celsius", "fahrenheit"`},
			{"/forecastWeatherInfo/num_days", "got true, want integer"},
		}},
		{"missing and wrong together", fc, `{"forecastWeatherInfo":{"format":null}}`, []v{
			{"/forecastWeatherInfo/format", "got null, want string"},
			{"/forecastWeatherInfo/location", "missing required member"},
			{"/forecastWeatherInfo/num_days", "missing required member"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fcall := runtime.FunctionCall{Name: tt.fn}
			if tt.args != "" {
				fcall.Arguments = json.RawMessage(tt.args)
			}
			_, err := rt.Call(t.Context(), fcall)
			if !errors.Is(err, runtime.ErrCall) {
				t.Fatalf("err = %v, want a call error", err)
			}
			e := asError(t, err)
			if e.Code != runtime.CodeInvalidParams {
				t.Errorf("code = %d, want %d", e.Code, runtime.CodeInvalidParams)
			}
			var want []runtime.Violation
			for _, w := range tt.want {
				want = append(want, runtime.Violation{Path: w.path, Message: w.message})
			}
			if diff := cmp.Diff(want, e.Violations()); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if want := runtime.InvalidParams(want...).Message; e.Message != want {
				t.Errorf("message = %q, want %q", e.Message, want)
			}
		})
	}
	select {
	case name := <-called:
		t.Errorf("the service was called (%s) with invalid arguments", name)
	default:
	}
}

// The typed client does not stop a value outside the enum; the server does.
func TestInvalidEnumFromTypedClient(t *testing.T) {
	if weathertool.CurrentWeatherInfoFormat("kelvin").Valid() {
		t.Error(`CurrentWeatherInfoFormat("kelvin").Valid() = true`)
	}
	for _, f := range []weathertool.CurrentWeatherInfoFormat{weathertool.CurrentWeatherInfoFormatCelsius, weathertool.CurrentWeatherInfoFormatFahrenheit} {
		if !f.Valid() {
			t.Errorf("%q.Valid() = false", f)
		}
	}
	c, _ := newClient(t, serve(t, &service{}))
	args := sanFrancisco
	args.CurrentWeatherInfo.Format = "kelvin"
	_, err := c.GetCurrentWeather(t.Context(), args)
	want := []runtime.Violation{{Path: "/currentWeatherInfo/format", Message: `got "kelvin", want one of "celsius", "fahrenheit"`}}
	if diff := cmp.Diff(want, asError(t, err).Violations()); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// A body that is not JSON is a parse error (-32700), still a call error.
func TestParseError(t *testing.T) {
	_, rt := newClient(t, serve(t, &service{}))
	_, err := rt.Call(t.Context(), runtime.FunctionCall{Name: "get_current_weather", Arguments: json.RawMessage(`{"currentWeatherInfo":`)})
	if e := asError(t, err); e.Code != runtime.CodeParseError || e.Class != runtime.ClassCall {
		t.Errorf("err = %v, want a -32700 call error", err)
	}
}

func TestMethodNotFound(t *testing.T) {
	_, rt := newClient(t, serve(t, &service{}))
	_, err := rt.Call(t.Context(), runtime.FunctionCall{Name: "get_weather", Arguments: json.RawMessage(`{}`)})
	e := asError(t, err)
	if e.Code != runtime.CodeMethodNotFound || e.Class != runtime.ClassCall || e.Message != `method not found: "get_weather"` {
		t.Errorf("err = %+v, want -32601 `method not found: \"get_weather\"`", e)
	}
	// The weather tool has no streaming functions.
	for _, err := range rt.StreamCall(t.Context(), runtime.FunctionCall{Name: "get_current_weather"}) {
		if e := asError(t, err); e.Code != runtime.CodeMethodNotFound || !errors.Is(err, runtime.ErrCall) {
			t.Errorf("streamCall err = %v, want -32601", err)
		}
	}
}

func TestUnauthorized(t *testing.T) {
	url := serve(t, &service{}, runtime.WithAPIKeys("key-one", "key-two"))
	for _, key := range []string{"", "key-three", "key-on", "key-one2", "KEY-ONE"} {
		c, rt := newClient(t, url, runtime.WithAPIKey(key))
		_, err := c.GetCurrentWeather(t.Context(), sanFrancisco)
		if !errors.Is(err, runtime.ErrUnauthorized) || errors.Is(err, runtime.ErrCall) {
			t.Errorf("key %q: call err = %v, want ErrUnauthorized only", key, err)
		}
		if e := asError(t, err); e.Code != runtime.CodeUnauthorized {
			t.Errorf("key %q: code = %d, want 401", key, e.Code)
		}
		if _, err := rt.Load(t.Context()); !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Load err = %v, want ErrUnauthorized", key, err)
		}
		if _, err := rt.Version(t.Context()); !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Version err = %v, want ErrUnauthorized", key, err)
		}
	}
	for _, key := range []string{"key-one", "key-two"} {
		c, _ := newClient(t, url, runtime.WithAPIKey(key))
		if _, err := c.GetCurrentWeather(t.Context(), sanFrancisco); err != nil {
			t.Errorf("key %q: %v", key, err)
		}
	}
}

func TestServerDown(t *testing.T) {
	// A port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + runtime.DefaultPrefix
	ln.Close()
	c, rt := newClient(t, url)
	_, err = c.GetCurrentWeather(t.Context(), sanFrancisco)
	if !errors.Is(err, runtime.ErrNoAccess) || errors.Is(err, runtime.ErrCall) {
		t.Errorf("call err = %v, want ErrNoAccess only", err)
	}
	if e := asError(t, err); e.Code != runtime.CodeNoAccess || errors.Unwrap(e) == nil {
		t.Errorf("code = %d, cause = %v; want 404 and the dial error", e.Code, errors.Unwrap(e))
	}
	if _, err := rt.Load(t.Context()); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("Load err = %v, want ErrNoAccess", err)
	}
}

// A server that was shut down is a server that is down, even for a client
// that holds a kept-alive connection to it.
func TestServerShutDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeListener(ctx, ln, must(weathertool.NewTool(&service{}))) }()
	c, _ := newClient(t, "http://"+ln.Addr().String()+runtime.DefaultPrefix)
	if _, err := c.GetCurrentWeather(t.Context(), sanFrancisco); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ServeListener after cancel: %v", err)
	}
	if _, err := c.GetCurrentWeather(t.Context(), sanFrancisco); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("err = %v, want ErrNoAccess", err)
	}
}

func TestContextCancelled(t *testing.T) {
	t.Run("before the call", func(t *testing.T) {
		c, _ := newClient(t, serve(t, &service{}))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := c.GetCurrentWeather(ctx, sanFrancisco)
		if !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrNoAccess) || errors.Is(err, runtime.ErrCall) {
			t.Errorf("err = %v, want context.Canceled and no OpenTool class", err)
		}
	})
	t.Run("deadline passed", func(t *testing.T) {
		c, _ := newClient(t, serve(t, &service{}))
		ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
		defer cancel()
		if _, err := c.GetCurrentWeather(ctx, sanFrancisco); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("during the call", func(t *testing.T) {
		entered := make(chan struct{})
		serverSaw := make(chan error, 1)
		svc := &service{current: func(ctx context.Context, _ weathertool.GetCurrentWeatherArgs) (string, error) {
			close(entered)
			<-ctx.Done() // the server cancels the call's context when the caller goes
			serverSaw <- ctx.Err()
			return "", ctx.Err()
		}}
		c, _ := newClient(t, serve(t, svc))
		ctx, cancel := context.WithCancel(t.Context())
		res := make(chan error, 1)
		go func() {
			_, err := c.GetCurrentWeather(ctx, sanFrancisco)
			res <- err
		}()
		<-entered
		cancel()
		if err := <-res; !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrNoAccess) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if err := <-serverSaw; !errors.Is(err, context.Canceled) {
			t.Errorf("the service's context ended with %v, want context.Canceled", err)
		}
	})
}

// Many goroutines share one client (run with -race). Keep-alives are off here:
// with them the transport dials spare connections that may never carry a
// request, and the server's graceful shutdown waits 5 s for those (net/http
// treats a new connection as idle only after 5 s, Go issue 22682).
func TestConcurrentCalls(t *testing.T) {
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	c, _ := newClient(t, serve(t, &service{}), runtime.WithHTTPClient(hc))
	const n = 32
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			args := zurich
			args.ForecastWeatherInfo.NumDays = int64(i)
			got, err := c.GetNDayWeatherForecast(t.Context(), args)
			if want := fmt.Sprintf("forecast %q celsius %d", args.ForecastWeatherInfo.Location, i); err == nil && got != want {
				err = fmt.Errorf("call %d = %q, want %q", i, got, want)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestDocument(t *testing.T) {
	data, err := os.ReadFile("weather.json")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := otload.LoadOpenTool(data)
	if err != nil {
		t.Fatal(err)
	}
	doc := weathertool.Document()
	if diff := cmp.Diff(fromFile, doc); diff != "" {
		t.Errorf("Document() differs from weather.json (-file +embedded):\n%s", diff)
	}

	_, rt := newClient(t, serve(t, &service{}, runtime.WithVersion("2.3.4")))
	loaded, err := rt.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(doc, loaded); diff != "" {
		t.Errorf("client Load differs from Document() (-embedded +loaded):\n%s", diff)
	}
	if v, err := rt.Version(t.Context()); err != nil || v.Version != "2.3.4" {
		t.Errorf("Version = %+v, %v; want 2.3.4", v, err)
	}

	// Each call returns a copy of its own.
	doc.Functions[0].Name = "changed"
	if weathertool.Document().Functions[0].Name != "get_current_weather" {
		t.Error("changing one Document() changed the next")
	}
}

// jsonSchema is the part of a JSON Schema object the declarations use.
type jsonSchema struct {
	Type        string                 `json:"type"`
	Description string                 `json:"description"`
	Properties  map[string]*jsonSchema `json:"properties"`
	Required    []string               `json:"required"`
	Enum        []any                  `json:"enum"`
}

func TestDeclarations(t *testing.T) {
	decls := declare.Plain(weathertool.Document())
	var names []string
	for _, d := range decls {
		names = append(names, d.Name)
	}
	if want := []string{"get_current_weather", "get_n_day_weather_forecast"}; !slices.Equal(names, want) {
		t.Fatalf("declared functions = %q, want %q", names, want)
	}
	wantInner := map[string][]string{
		"get_current_weather":        {"location", "format"},
		"get_n_day_weather_forecast": {"location", "format", "num_days"},
	}
	param := map[string]string{
		"get_current_weather":        "currentWeatherInfo",
		"get_n_day_weather_forecast": "forecastWeatherInfo",
	}
	for _, d := range decls {
		if d.Description == "" {
			t.Errorf("%s: no description", d.Name)
		}
		var s jsonSchema
		if err := json.Unmarshal(d.Parameters, &s); err != nil {
			t.Fatalf("%s: parameters %s are not a JSON object: %v", d.Name, d.Parameters, err)
		}
		p := param[d.Name]
		if s.Type != "object" || !slices.Equal(s.Required, []string{p}) || len(s.Properties) != 1 || s.Properties[p] == nil {
			t.Errorf("%s: parameters = %s, want an object with the one required property %q", d.Name, d.Parameters, p)
			continue
		}
		inner := s.Properties[p]
		if inner.Type != "object" || !slices.Equal(inner.Required, wantInner[d.Name]) {
			t.Errorf("%s: %s = type %q required %q, want object required %q", d.Name, p, inner.Type, inner.Required, wantInner[d.Name])
		}
		if f := inner.Properties["format"]; f == nil || f.Type != "string" || !slices.Equal(f.Enum, []any{"celsius", "fahrenheit"}) {
			t.Errorf("%s: format schema = %+v, want a string enum of celsius, fahrenheit", d.Name, f)
		}
		if l := inner.Properties["location"]; l == nil || l.Description != "The city and state, e.g. San Francisco, CA" {
			t.Errorf("%s: location schema = %+v, want its description", d.Name, l)
		}
	}
	// What an OpenAI-style chat API takes under "tools".
	b, err := json.Marshal(decls[0])
	if err != nil {
		t.Fatal(err)
	}
	var tool map[string]json.RawMessage
	if err := json.Unmarshal(b, &tool); err != nil || len(tool["name"]) == 0 || len(tool["parameters"]) == 0 {
		t.Errorf("declaration JSON %s lacks name or parameters", b)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
