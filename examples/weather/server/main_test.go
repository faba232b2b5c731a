package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func TestService(t *testing.T) {
	srv := httptest.NewServer(runtime.NewHandler(must(weathertool.NewTool(service{}))))
	defer srv.Close()
	c := weathertool.NewClient(runtime.NewClient(srv.URL + runtime.DefaultPrefix))
	ctx := t.Context()

	got, err := c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{CurrentWeatherInfo: weathertool.CurrentWeatherInfo{
		Location: "Boston, MA", Format: weathertool.CurrentWeatherInfoFormatFahrenheit,
	}})
	if want := "Sunny, 72 °F in Boston, MA"; err != nil || got != want {
		t.Errorf("GetCurrentWeather = %q, %v; want %q", got, err, want)
	}
	got, err = c.GetNDayWeatherForecast(ctx, weathertool.GetNDayWeatherForecastArgs{ForecastWeatherInfo: weathertool.ForecastWeatherInfo{
		Location: "Paris, France", Format: weathertool.ForecastWeatherInfoFormatCelsius, NumDays: 5,
	}})
	if want := "5-day forecast for Paris, France: sunny, 22 °C every day"; err != nil || got != want {
		t.Errorf("GetNDayWeatherForecast = %q, %v; want %q", got, err, want)
	}

	_, err = c.GetNDayWeatherForecast(ctx, weathertool.GetNDayWeatherForecastArgs{ForecastWeatherInfo: weathertool.ForecastWeatherInfo{
		Location: "Paris, France", Format: weathertool.ForecastWeatherInfoFormatCelsius, NumDays: 17,
	}})
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
		t.Fatalf("17 days: err = %v, want -32602", err)
	}
	want := []runtime.Violation{{Path: "/forecastWeatherInfo/num_days", Message: "got 17, want 1 to 16"}}
	if diff := cmp.Diff(want, e.Violations()); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestRunFlags(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-version"}, &out, io.Discard); err != nil || out.String() != version+"\n" {
		t.Errorf("-version: %q, %v", out.String(), err)
	}
	if err := run(t.Context(), []string{"-h"}, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: err = %v, want flag.ErrHelp", err)
	}
	for _, args := range [][]string{{"-nope"}, {"-t", "0"}, {"-toolPort", "http"}, {"extra"}} {
		var stderr bytes.Buffer
		if err := run(t.Context(), args, io.Discard, &stderr); !errors.Is(err, errUsage) || stderr.Len() == 0 {
			t.Errorf("%q: err = %v, stderr %q; want a usage error explained", args, err, stderr.String())
		}
	}
}

// With its context cancelled, run serves and returns nil at once.
func TestRunStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, []string{"-addr", "127.0.0.1:0", "-apiKey", "k"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := `serving "Weather Example" 1.0.0 at http://127.0.0.1:0/opentool`; !strings.HasPrefix(out.String(), want) {
		t.Errorf("output %q, want it to start with %q", out.String(), want)
	}
}

// -t replaces the port of -addr: a port in use makes run fail.
func TestRunPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, args := range [][]string{{"-addr", ln.Addr().String()}, {"-addr", "127.0.0.1:9627", "-t", port}} {
		if err := run(t.Context(), args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), ln.Addr().String()) {
			t.Errorf("%q: err = %v, want a listen error for %s", args, err, ln.Addr())
		}
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
