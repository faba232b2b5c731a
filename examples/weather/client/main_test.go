package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/internal/exampleclient"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// fake answers with what it was asked.
type fake struct{}

func (fake) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	return fmt.Sprintf("%s in %s", a.CurrentWeatherInfo.Format, a.CurrentWeatherInfo.Location), nil
}

func (fake) GetNDayWeatherForecast(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
	f := a.ForecastWeatherInfo
	return fmt.Sprintf("%d days of %s in %s", f.NumDays, f.Format, f.Location), nil
}

func TestRun(t *testing.T) {
	srv := httptest.NewServer(runtime.NewHandler(must(weathertool.NewTool(fake{})), runtime.WithAPIKeys("secret"), runtime.WithVersion("9.9.9")))
	defer srv.Close()
	url := srv.URL + runtime.DefaultPrefix

	var out bytes.Buffer
	if err := run(t.Context(), []string{"-url", url, "-apiKey", "secret"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := `server version: 9.9.9
get_current_weather: fahrenheit in San Francisco, CA
get_n_day_weather_forecast: 3 days of celsius in Paris, France
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}

	if err := run(t.Context(), []string{"-url", url}, io.Discard, io.Discard); !errors.Is(err, runtime.ErrUnauthorized) {
		t.Errorf("without the key: err = %v, want ErrUnauthorized", err)
	}
	if err := run(t.Context(), []string{"-nope"}, io.Discard, io.Discard); !errors.Is(err, exampleclient.ErrUsage) {
		t.Errorf("bad flag: err = %v, want errUsage", err)
	}
}

func TestRunServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	err = run(t.Context(), []string{"-url", "http://" + ln.Addr().String() + "/opentool"}, io.Discard, io.Discard)
	if !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("err = %v, want ErrNoAccess", err)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
