// Reading the test app's /metrics in API tests: a counter's value summed over the series that match, and waiting until
// a request is in flight (a long poll has arrived). The app is shared by a file's tests: compare before and after.
import { testApp } from "./TestApp.ts"

export const metricsText = async (): Promise<string> => {
  const app = await testApp()
  return (await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: "Bearer test-metrics-token" } })).text()
}

/** The sum of a metric's series (those whose labels include `label`, e.g. `as="one_statement"`, when given). */
export const metricSum = (text: string, name: string, label?: string): number =>
  text.split("\n")
    .filter((line) =>
      (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && (label === undefined || line.includes(label))
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)

/** Until the node answers a request besides the metrics one: the long poll has arrived (it may still be looking). */
export const untilInFlight = async (): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    if (metricSum(await metricsText(), "flowcore_http_requests_in_flight") >= 2) return
  }
}
