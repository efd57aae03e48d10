package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * /play and /dashboard in a real browser: headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, which {@code .ci/run} installs) driven by Selenium. The console runs a
 * typed query with Ctrl-Enter and shows its rows; the dashboard draws its charts with data. Under
 * {@code CI=true} a missing browser fails the test; elsewhere it is skipped with a message.
 * Screenshots go to {@code target/screenshots/} (the README's are copies).
 */
class WebPagesBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir Path dir;

  @Test
  void consoleRunsAQueryAndDashboardDrawsCharts() throws Exception {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("CI=true but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing (.ci/run installs"
          + " Debian's chromium and chromium-driver)");
    }
    Assumptions.assumeTrue(present, "SKIPPED: the browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
        + " (apt-get install chromium chromium-driver)");
    try (TravertineServer server = TravertineServer.start(ServerConfig.load(null,
        Map.of("port", "0", "data", dir.resolve("data").toString())))) {
      String base = server.httpUrl();
      HttpClient http = HttpClient.newHttpClient();
      for (String sql : List.of("CREATE TABLE hits (k INTEGER NOT NULL, url VARCHAR) ORDER BY k",
          "INSERT INTO hits SELECT CAST(number AS INTEGER), 'https://example.com/' || CAST(MOD(number, 7) AS VARCHAR)"
              + " FROM TABLE(numbers(100000))")) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 200, r.body());
      }
      ChromeOptions options = new ChromeOptions();
      options.setBinary(CHROMIUM.toFile());
      options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900");
      ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
          .usingAnyFreePort().build();
      WebDriver browser = new ChromeDriver(service, options);
      Path shots = Path.of("target", "screenshots");
      Files.createDirectories(shots);
      try {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        browser.get(base + "play");
        wait.until(d -> d.findElement(By.id("tables")).getText().contains("hits"));
        WebElement editor = browser.findElement(By.id("editor"));
        editor.clear();
        editor.sendKeys("SELECT url, count(*) AS views FROM hits GROUP BY url ORDER BY url");
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        wait.until(d -> d.findElement(By.id("status")).getText().contains("rows in"));
        String table = browser.findElement(By.id("result")).getText();
        assertTrue(table.contains("https://example.com/0") && table.contains("14286"), table);
        String status = browser.findElement(By.id("status")).getText();
        assertTrue(status.contains("7 rows") && status.matches("(?s).*read [1-9][0-9]* rows, .*"), status);
        Files.write(shots.resolve("play.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        browser.get(base + "dashboard");
        try {
          wait.until(d -> {
            List<WebElement> charts = d.findElements(By.cssSelector(".chart"));
            return charts.size() == 10 && charts.stream().allMatch(c -> !c.findElements(By.tagName("canvas")).isEmpty()
                && Integer.parseInt(String.valueOf(c.getAttribute("data-points")).replace("null", "0")) >= 2);
          });
        } finally {
          Files.write(shots.resolve("dashboard.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        }
        for (WebElement c : browser.findElements(By.cssSelector(".chart .error"))) {
          assertTrue(c.getText().isEmpty(), "a chart's query failed: " + c.getText());
        }
      } finally {
        browser.quit();
      }
    }
  }
}
