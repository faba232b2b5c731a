package toolcli_test

import (
	"context"
	"fmt"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

type weather struct{}

func (weather) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	return fmt.Sprintf("Sunny in %s", a.CurrentWeatherInfo.Location), nil
}

func (weather) GetNDayWeatherForecast(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return "Sunny for days", nil
}

// The main of a weather server written by hand (README, "A server command"):
// weather start, weather mcp, weather -h.
func ExampleCommand() {
	cmd := &toolcli.Command{
		Name:     "weather",
		Document: weathertool.Document(), // the version; the places of mistakes in --options
		Port:     9627,
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			return weathertool.NewTool(weather{}, opts...) // opts: from --options FILE
		},
	}
	cmd.Main()
}
