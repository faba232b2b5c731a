package mcpbridge_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

type sdkWeatherInfo struct {
	Location string `json:"location"`
	Format   string `json:"format"`
}

type sdkWeatherArgs struct {
	Info sdkWeatherInfo `json:"currentWeatherInfo"`
}

type sdkWeather struct {
	CurrentWeather string `json:"currentWeather"`
}

// A typed client generated for a document (weathertool, from
// examples/weather/weather.json) calls an MCP server written with the SDK
// alone whose tool matches the document's function, through mcpbridge.Tool and
// runtime.Local: the same code as over OpenTool HTTP.
func TestTypedClientOfSDKServer(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_current_weather", Description: "Get the current weather."},
		func(_ context.Context, _ *mcp.CallToolRequest, in sdkWeatherArgs) (*mcp.CallToolResult, sdkWeather, error) {
			if in.Info.Location == "" {
				return nil, sdkWeather{}, errors.New("where? the location is empty")
			}
			return nil, sdkWeather{CurrentWeather: fmt.Sprintf("Sunny in %s (%s)", in.Info.Location, in.Info.Format)}, nil
		})
	c := weathertool.NewClient(runtime.Local(memoryTool(t, server)))
	ctx := t.Context()

	got, err := c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{
		CurrentWeatherInfo: weathertool.CurrentWeatherInfo{Location: "Paris", Format: weathertool.CurrentWeatherInfoFormatCelsius},
	})
	if want := "Sunny in Paris (celsius)"; err != nil || got != want {
		t.Errorf("GetCurrentWeather = %q, %v; want %q", got, err, want)
	}

	// The SDK tool's error: a result with isError, a call error with code 500
	// (the SDK's server puts no code in _meta).
	_, err = c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{})
	var e *runtime.Error
	if !errors.Is(err, runtime.ErrCall) || !errors.As(err, &e) || e.Code != 500 || e.Message != "where? the location is empty" {
		t.Errorf("GetCurrentWeather of no location: %v, want a call error 500 with the tool's text", err)
	}

	// The server has no get_n_day_weather_forecast: method not found, as an
	// OpenTool server answers.
	_, err = c.GetNDayWeatherForecast(ctx, weathertool.GetNDayWeatherForecastArgs{})
	if !errors.Is(err, runtime.ErrCall) || !errors.As(err, &e) || e.Code != runtime.CodeMethodNotFound ||
		e.Message != `method not found: "get_n_day_weather_forecast"` {
		t.Errorf("GetNDayWeatherForecast: %v, want method not found", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.GetCurrentWeather(cctx, weathertool.GetCurrentWeatherArgs{}); !errors.Is(err, context.Canceled) || errors.As(err, &e) {
		t.Errorf("GetCurrentWeather with a cancelled context: %v, want context.Canceled alone", err)
	}
}
