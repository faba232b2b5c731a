// Command server serves the weather example over OpenTool HTTP: it implements
// weathertool.Service with canned answers and serves it with runtime.Serve until
// SIGINT or SIGTERM, then shuts down gracefully.
//
// Usage:
//
//	go run ./examples/weather/server [flags]
//
// The flags (after the OpenTool server CLI guidelines, in Go's flag syntax):
//
//	-addr HOST:PORT
//		Listen address (default "127.0.0.1:9627").
//	-toolPort, -t PORT
//		Listen on PORT instead of the port of -addr.
//	-apiKeys, -apiKey, -k KEY
//		Accept only requests that carry "Authorization: Bearer KEY"; repeat the
//		flag to allow several keys. Without it, every request is accepted.
//	-version, -v
//		Print the version and exit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// errUsage is bad usage; the flag package has printed the problem already.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:9627", "listen `address` host:port")
	var port string
	portFlag := func(s string) error {
		if n, err := strconv.ParseUint(s, 10, 16); err != nil || n == 0 {
			return fmt.Errorf("got %q, want a port number from 1 to 65535", s)
		}
		port = s
		return nil
	}
	fs.Func("toolPort", "listen on `port` instead of the port of -addr", portFlag)
	fs.Func("t", "short for -toolPort", portFlag)
	var keys []string
	keyFlag := func(s string) error { keys = append(keys, s); return nil }
	fs.Func("apiKeys", "accept only requests with this API `key` (repeatable)", keyFlag)
	fs.Func("apiKey", "same as -apiKeys", keyFlag)
	fs.Func("k", "short for -apiKeys", keyFlag)
	var showVersion bool
	fs.BoolVar(&showVersion, "version", false, "print the version and exit")
	fs.BoolVar(&showVersion, "v", false, "short for -version")
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
	if showVersion {
		fmt.Fprintln(stdout, version)
		return nil
	}
	if port != "" {
		host, _, err := net.SplitHostPort(*addr)
		if err != nil {
			return fmt.Errorf("-addr: %w", err)
		}
		*addr = net.JoinHostPort(host, port)
	}

	doc := weathertool.Document()
	fmt.Fprintf(stdout, "serving %q %s at http://%s%s (Ctrl-C stops)\n", doc.Info.Title, doc.Info.Version, *addr, runtime.DefaultPrefix)
	tool, err := weathertool.NewTool(service{})
	if err != nil {
		return err
	}
	return runtime.Serve(ctx, *addr, tool,
		runtime.WithVersion(version),
		runtime.WithAPIKeys(keys...))
}
