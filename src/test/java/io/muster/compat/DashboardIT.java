package io.muster.compat;

import io.muster.testing.BuiltVersion;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard in headless Chromium (Debian's chromium and chromium-driver, which .ci/run installs) against the
 * WAR on embedded Payara: it loads without console errors, shows apps and instances, shows the self-preservation
 * banner when it is on, lets an admin take an instance out of service, and shows anonymous users no actions.
 * Screenshots go to target/screenshots/.
 */
class DashboardIT {
    private static final Path SHOTS = Path.of("target", "screenshots");
    static ChildServer server;
    static ChildServer preserving;
    static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        String chromium = System.getProperty("chromium.binary", "/usr/bin/chromium");
        String driver = System.getProperty("chromedriver", "/usr/bin/chromedriver");
        Assumptions.assumeTrue(new File(chromium).canExecute() && new File(driver).canExecute(),
                "needs Debian's chromium and chromium-driver (installed by .ci/run)");
        server = ChildServer.start(18098);
        // a second server whose clients go silent after registering: renewals fall below the threshold
        preserving = ChildServer.start(18099);
        Files.createDirectories(SHOTS);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new File(driver)).build(),
                options);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
        if (preserving != null) {
            preserving.close();
        }
    }

    private static void shot(String name) throws Exception {
        File f = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The page re-renders its tables every few seconds, so a found element may go stale: look it up again. */
    private static WebDriverWait waitUpTo(int seconds) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(seconds));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static String textOf(String css) {
        return waitUpTo(10).until(d -> d.findElement(By.cssSelector(css)).getText());
    }

    private static void click(String css) {
        waitUpTo(10).until(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    /** Types into the dashboard's search box and waits until the app's row is shown. */
    private static void search(String app) {
        WebElement box = browser.findElement(By.id("search"));
        waitUpTo(15).until(d -> !d.findElements(By.cssSelector("tr.app")).isEmpty());
        box.clear();
        box.sendKeys(app);
        waitUpTo(15).until(d -> !d.findElements(By.cssSelector("tr.app[data-app='" + app + "']")).isEmpty());
    }

    private static List<String> severeConsoleEntries() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
    }

    @Test
    void showsAppsAndInstancesAndLetsAnAdminTakeOneOutOfService() throws Exception {
        Http http = new Http(server.baseUrl);
        for (int i = 0; i < 3; i++) {
            assertThat(http.postJson("apps/SHOP", instanceJson("SHOP", "shop-" + i, "UP", 1000)).status())
                    .isEqualTo(204);
        }
        http.postJson("apps/BILLING", instanceJson("BILLING", "billing-1", "DOWN", 1000));

        browser.get(server.baseUrl);
        search("BILLING");
        assertThat(textOf("tr.app[data-app='BILLING']"))
                .contains("BILLING", "DOWN (1)");
        search("SHOP");
        assertThat(textOf("tr.app[data-app='SHOP']")).contains("SHOP", "UP (3)");
        assertThat(textOf("#system-table")).contains("Renews threshold", "Environment");
        assertThat(textOf("#peers-table")).contains("no peers configured");
        assertThat(textOf("footer")).startsWith("Muster " + BuiltVersion.ofPackagedWar() + " · ");
        shot("dashboard-overview");

        click("tr.app[data-app='SHOP']");
        waitUpTo(5).until(d -> !d.findElements(By.cssSelector("[data-instance='shop-1']")).isEmpty());
        click("[data-instance='shop-1']");
        waitUpTo(5).until(d -> d.findElement(By.id("instance-dialog")).isDisplayed());
        assertThat(browser.findElement(By.id("instance-table")).getText())
                .contains("metadata.management.port", "leaseInfo.lastRenewalTimestamp", "overriddenStatus");
        assertThat(browser.findElement(By.id("instance-actions")).isDisplayed()).as("anonymous: no actions").isFalse();
        shot("dashboard-instance-anonymous");
        browser.findElement(By.id("instance-close")).click();

        browser.findElement(By.id("sign-in-open")).click();
        browser.findElement(By.id("user")).sendKeys(ChildServer.ADMIN);
        browser.findElement(By.id("password")).sendKeys(ChildServer.ADMIN_PASSWORD);
        browser.findElement(By.cssSelector("#sign-in button[type=submit]")).click();
        waitUpTo(5).until(d -> d.findElement(By.id("signed-in")).isDisplayed());

        click("[data-instance='shop-1']");
        waitUpTo(5).until(d -> d.findElement(By.id("instance-actions")).isDisplayed());
        shot("dashboard-instance-admin");
        browser.findElement(By.cssSelector("#instance-actions [data-action='out-of-service']")).click();
        String confirmation = browser.switchTo().alert().getText();
        assertThat(confirmation).contains("OUT_OF_SERVICE");
        browser.switchTo().alert().accept();
        waitUpTo(10).until(d -> http.getJson("apps/SHOP/shop-1").body().contains("\"status\":\"OUT_OF_SERVICE\""));
        waitUpTo(10).until(d -> d.findElement(By.cssSelector("tr.app[data-app='SHOP']")).getText()
                .contains("OUT_OF_SERVICE (1)"));

        browser.findElement(By.id("timeline-filter")).sendKeys("BILLING");
        waitUpTo(5).until(d -> {
            String t = d.findElement(By.id("timeline-table")).getText();
            return t.contains("BILLING") && !t.contains("SHOP") && !t.contains("MANY");
        });
        shot("dashboard-timeline-filtered");
        assertThat(severeConsoleEntries()).isEmpty();
    }

    @Test
    void showsTheSelfPreservationBannerAndWhy() throws Exception {
        Http http = new Http(preserving.baseUrl);
        for (int i = 0; i < 20; i++) {
            http.postJson("apps/SILENT", instanceJson("SILENT", "silent-" + i, "UP", 1000));
            http.put("apps/SILENT/silent-" + i);   // renewed once: expected to renew from now on
        }
        for (int i = 0; i < 3; i++) {
            http.postJson("apps/JUNK", instanceJson("JUNK", "junk-" + i, "UP", 1000));
        }
        browser.get(preserving.baseUrl);
        WebElement banner = browser.findElement(By.id("banner"));
        waitUpTo(15).until(d -> banner.isDisplayed());
        // within the first renewal minute after the start the count is not a measurement yet: no emergency
        assertThat(banner.getText()).contains("Measuring renewals").doesNotContain("EMERGENCY");
        assertThat(textOf("#preservation"))
                .contains("Expected clients", "20", "Threshold", "34",
                        "3 instance(s) registered but never renewed are not expected");
        shot("dashboard-self-preservation");
        assertThat(severeConsoleEntries()).isEmpty();
    }

    @Test
    void findsInstancesAmongManyAppsWithSearchAndPaging() throws Exception {
        Http http = new Http(server.baseUrl);
        for (int i = 0; i < 120; i++) {
            http.postJson("apps/MANY-" + i, instanceJson("MANY-" + i, "many-" + i, "UP", 1000));
        }
        browser.get(server.baseUrl);
        waitUpTo(15).until(d -> d.findElement(By.id("page")).getText().matches("page 1 of [3-9]"));
        assertThat(browser.findElements(By.cssSelector("#apps-table tr.app"))).hasSize(50);
        browser.findElement(By.id("search")).sendKeys("many-77");
        waitUpTo(5).until(d -> d.findElements(By.cssSelector("#apps-table tr.app")).size() == 1);
        assertThat(textOf("#apps-table tr.app")).contains("MANY-77");
        shot("dashboard-search");
    }
}
