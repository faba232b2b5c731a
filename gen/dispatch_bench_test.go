package gen_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	weather "github.com/opentoolgen/opentoolgen/testdata/golden/weather"
)

// The server dispatch overhead of a generated adapter (decode + validate + call
// + encode) next to a hand-written map[string]any adapter doing the same checks
// for the same function, as a Go tool server without a generator would.

type forecastService struct{}

func (forecastService) GetCurrentWeather(_ context.Context, a weather.GetCurrentWeatherArgs) (string, error) {
	return a.CurrentWeatherInfo.Location, nil
}

func (forecastService) GetNDayWeatherForecast(_ context.Context, a weather.GetNDayWeatherForecastArgs) (string, error) {
	return forecast(a.ForecastWeatherInfo.Location, string(a.ForecastWeatherInfo.Format), a.ForecastWeatherInfo.NumDays), nil
}

func forecast(location, format string, days int64) string {
	return fmt.Sprintf("%d days of sun in %s (%s)", days, location, format)
}

// mapTool is the hand-written adapter: arguments through map[string]any.
type mapTool struct{}

func (mapTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

func (mapTool) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name != "get_n_day_weather_forecast" {
		return nil, runtime.MethodNotFound(name)
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
	}
	var vs []runtime.Violation
	info, ok := m["forecastWeatherInfo"].(map[string]any)
	if !ok {
		return nil, runtime.InvalidParams(runtime.Violation{Path: "/forecastWeatherInfo", Message: "want object"})
	}
	loc, ok := info["location"].(string)
	if !ok {
		vs = append(vs, runtime.Violation{Path: "/forecastWeatherInfo/location", Message: "want string"})
	}
	format, ok := info["format"].(string)
	if !ok || (format != "celsius" && format != "fahrenheit") {
		vs = append(vs, runtime.Violation{Path: "/forecastWeatherInfo/format", Message: "want celsius or fahrenheit"})
	}
	days, ok := info["num_days"].(float64)
	if !ok || days != float64(int64(days)) {
		vs = append(vs, runtime.Violation{Path: "/forecastWeatherInfo/num_days", Message: "want integer"})
	}
	if len(vs) > 0 {
		return nil, runtime.InvalidParams(vs...)
	}
	return json.Marshal(map[string]any{"forecastWeather": forecast(loc, format, int64(days))})
}

var forecastArgs = json.RawMessage(`{"forecastWeatherInfo":{"location":"San Francisco, CA","format":"celsius","num_days":5}}`)

func TestDispatchAdaptersAgree(t *testing.T) {
	ctx := context.Background()
	a, err := must(weather.NewTool(forecastService{})).Call(ctx, "get_n_day_weather_forecast", forecastArgs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mapTool{}.Call(ctx, "get_n_day_weather_forecast", forecastArgs)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("generated %s, hand-written %s", a, b)
	}
	_, err = must(weather.NewTool(forecastService{})).Call(ctx, "get_n_day_weather_forecast",
		json.RawMessage(`{"forecastWeatherInfo":{"location":1,"format":"kelvin"}}`))
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || len(e.Violations()) != 3 {
		t.Fatalf("got %v, want -32602 with 3 violations", err)
	}
}

func BenchmarkDispatch(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		tool runtime.Tool
	}{
		{"generated", must(weather.NewTool(forecastService{}))},
		{"map", mapTool{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.tool.Call(ctx, "get_n_day_weather_forecast", forecastArgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
