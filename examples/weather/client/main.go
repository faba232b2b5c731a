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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// errUsage is bad usage; the flag package has printed the problem already.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:9627/opentool", "base `URL` of the OpenTool server")
	apiKey := fs.String("apiKey", "", "API `key` to send as a bearer token")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %q\n", fs.Args())
		fs.Usage()
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	rt := runtime.NewClient(*url, runtime.WithAPIKey(*apiKey))
	c := weathertool.NewClient(rt)

	v, err := rt.Version(ctx)
	if err != nil {
		// errors.Is(err, runtime.ErrNoAccess) when nothing listens at the URL,
		// runtime.ErrUnauthorized when the API key is missing or wrong.
		return err
	}
	fmt.Fprintf(stdout, "server version: %s\n", v.Version)

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
