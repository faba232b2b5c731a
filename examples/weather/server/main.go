// Command server serves the weather example over OpenTool HTTP: it implements
// weathertool.Service with canned answers and serves it with package toolcli until
// SIGINT or SIGTERM, then shuts down gracefully.
//
// Usage:
//
//	go run ./examples/weather/server [start|mcp] [options]
//
// Alone, it serves OpenTool HTTP at http://127.0.0.1:9627/opentool and MCP
// streamable HTTP at /mcp on the same port; mcp serves MCP over standard
// input and output. The options are toolcli's (go doc toolcli, or -h):
// -t PORT, -k KEY, --host HOST, --options FILE and the limits.
package main

import (
	"context"
	"fmt"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// version is what GET /version reports.
const version = "1.0.0"

// service implements weathertool.Service. A real tool would call a weather API
// here; the example answers from the arguments alone.
type service struct{}

var _ weathertool.Service = service{}

func (service) GetCurrentWeather(ctx context.Context, args weathertool.GetCurrentWeatherArgs) (string, error) {
	info := args.CurrentWeatherInfo
	return fmt.Sprintf("Sunny, %s in %s", temperature(string(info.Format)), info.Location), nil
}

func (service) GetNDayWeatherForecast(ctx context.Context, args weathertool.GetNDayWeatherForecastArgs) (string, error) {
	info := args.ForecastWeatherInfo
	// The document only says "integer": a tool checks the rest itself, and
	// reports it in the same shape as the generated validation.
	if info.NumDays < 1 || info.NumDays > 16 {
		return "", runtime.InvalidParams(runtime.Violation{
			Path:    "/forecastWeatherInfo/num_days",
			Message: fmt.Sprintf("got %d, want 1 to 16", info.NumDays),
		})
	}
	return fmt.Sprintf("%d-day forecast for %s: sunny, %s every day", info.NumDays, info.Location, temperature(string(info.Format))), nil
}

// temperature is the canned temperature in the unit asked for. The two enum
// types of the document are distinct Go types with the same values.
func temperature(format string) string {
	if format == string(weathertool.CurrentWeatherInfoFormatFahrenheit) {
		return "72 °F"
	}
	return "22 °C"
}

func main() {
	command().Main()
}

// command is the server's command line: toolcli's, on port 9627 by default.
func command() *toolcli.Command {
	return &toolcli.Command{
		Name:     "weather",
		Version:  version,
		Document: weathertool.Document(),
		Port:     9627,
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			return weathertool.NewTool(service{}, opts...)
		},
	}
}
