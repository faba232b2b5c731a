package main

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
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

// The command is toolcli's, its default port 9627.
func TestCommandLine(t *testing.T) {
	testtool.CheckCommandLine(t, command(), version, 9627)
}

// The command serves the tool until it is stopped, and exits 0.
func TestCommandServes(t *testing.T) {
	r := testtool.Start(t, command(), "-k", "key")
	c := weathertool.NewClient(runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithAPIKey("key")))
	ctx := t.Context()
	if got, err := c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{CurrentWeatherInfo: weathertool.CurrentWeatherInfo{Location: "Oslo", Format: weathertool.CurrentWeatherInfoFormatCelsius}}); err != nil || got != "Sunny, 22 °C in Oslo" {
		t.Errorf("call = %v, %v; want %v", got, err, "Sunny, 22 °C in Oslo")
	}
	if v, err := runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithAPIKey("key")).Version(ctx); err != nil || v.Version != version {
		t.Errorf("version = %q, %v; want %q", v, err, version)
	}
	if !strings.Contains(r.Logs.String(), "name=weather") {
		t.Errorf("logs do not name the command:\n%s", r.Logs)
	}
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit %d after a stop, want 0:\n%s", code, r.Logs)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
