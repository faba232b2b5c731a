// Command client calls every function of the weather example once through the
// generated weathertool.Client and prints the results.
//
// Usage:
//
//	go run ./examples/weather/client [-url URL] [-apiKey KEY]
//
// The flags are:
//
//	-url URL
//		Base URL of the OpenTool server (default "http://127.0.0.1:9627/opentool").
//	-apiKey KEY
//		Send "Authorization: Bearer KEY" with every request.
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/opentoolgen/opentoolgen/examples/internal/exampleclient"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// defaultURL is where the example's server listens by default.
const defaultURL = "http://127.0.0.1:9627/opentool"

func main() { exampleclient.Main(defaultURL, calls) }

// run is main with its arguments and outputs, for the tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return exampleclient.Run(ctx, defaultURL, args, stdout, stderr, calls)
}

// calls calls every function once through the generated client.
func calls(ctx context.Context, rt *runtime.Client, stdout io.Writer) error {
	c := weathertool.NewClient(rt)

	now, err := c.GetCurrentWeather(ctx, weathertool.GetCurrentWeatherArgs{
		CurrentWeatherInfo: weathertool.CurrentWeatherInfo{
			Location: "San Francisco, CA",
			Format:   weathertool.CurrentWeatherInfoFormatFahrenheit,
		},
	})
	if err != nil {
		return fmt.Errorf("get_current_weather: %w", err)
	}
	fmt.Fprintf(stdout, "get_current_weather: %s\n", now)

	forecast, err := c.GetNDayWeatherForecast(ctx, weathertool.GetNDayWeatherForecastArgs{
		ForecastWeatherInfo: weathertool.ForecastWeatherInfo{
			Location: "Paris, France",
			Format:   weathertool.ForecastWeatherInfoFormatCelsius,
			NumDays:  3,
		},
	})
	if err != nil {
		return fmt.Errorf("get_n_day_weather_forecast: %w", err)
	}
	fmt.Fprintf(stdout, "get_n_day_weather_forecast: %s\n", forecast)
	return nil
}
