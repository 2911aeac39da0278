package io.muster.compat;

import io.muster.testing.BuiltVersion;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
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
 * banner when it is on, lets an admin take an instance out of service, and shows anonymous users no actions; on a
 * node whose peer refuses its credentials it says so and what to fix, at desktop size and on a phone.
 * Screenshots go to target/screenshots/.
 *
 * <p>Ports: {@code -Ddashboard.it.port} (the first of four, 18098 by default) and {@code -Ddashboard.it.admin.port}
 * (the first of four admin ports, the port plus 10000 by default).
 */
class DashboardIT {
    private static final Path SHOTS = Path.of("target", "screenshots");
    private static final int PORT = Integer.getInteger("dashboard.it.port", 18098);
    private static final int ADMIN_PORT = Integer.getInteger("dashboard.it.admin.port", PORT + 10000);
    static ChildServer server;
    static ChildServer preserving;
    /** A standalone node that the next one names as its peer with credentials it refuses. */
    static ChildServer refusingPeer;
    static ChildServer node;
    static WebDriver browser;

    private static ChildServer child(int index, String... settings) throws Exception {
        String[] all = java.util.Arrays.copyOf(settings, settings.length + 1);
        all[settings.length] = "-Dadmin.port=" + (ADMIN_PORT + index);
        return ChildServer.start(PORT + index, all);
    }

    @BeforeAll
    static void start() throws Exception {
        String chromium = System.getProperty("chromium.binary", "/usr/bin/chromium");
        String driver = System.getProperty("chromedriver", "/usr/bin/chromedriver");
        Assumptions.assumeTrue(new File(chromium).canExecute() && new File(driver).canExecute(),
                "needs Debian's chromium and chromium-driver (installed by .ci/run)");
        server = child(0);
        refusingPeer = child(2);
        String peer = "127.0.0.1:" + (PORT + 2) + "/eureka/";
        // the same peer twice: once with a password it rejects, once (as localhost) with no credentials at all
        node = child(3, "-Deureka.client.serviceUrl.defaultZone=http://" + ChildServer.PEER + ":not-"
                + ChildServer.PEER_PASSWORD + "@" + peer + ",http://" + peer.replace("127.0.0.1", "localhost"),
                "-Deureka.server.minLeaseDurationSeconds=1",
                // a lapsed lease stays for the page to show, whatever the self-preservation state at the time
                "-Deureka.server.evictionIntervalTimerInMs=600000");
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
        for (ChildServer c : new ChildServer[]{preserving, refusingPeer, node}) {
            if (c != null) {
                c.close();
            }
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

    /** Opens the page's sign-in form and signs in as the child servers' admin. */
    private static void signInAsAdmin() {
        browser.findElement(By.id("sign-in-open")).click();
        browser.findElement(By.id("user")).sendKeys(ChildServer.ADMIN);
        browser.findElement(By.id("password")).sendKeys(ChildServer.ADMIN_PASSWORD);
        browser.findElement(By.cssSelector("#sign-in button[type=submit]")).click();
        waitUpTo(10).until(d -> d.findElement(By.id("signed-in")).isDisplayed());
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
        assertThat(browser.findElement(By.id("audit")).isDisplayed()).as("anonymous: no audit trail").isFalse();
        shot("dashboard-instance-anonymous");
        browser.findElement(By.id("instance-close")).click();

        signInAsAdmin();

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
        waitUpTo(15).until(d -> {
            String audit = d.findElement(By.id("audit-table")).getText();
            return audit.contains("operator " + ChildServer.ADMIN) && audit.contains("override-set")
                    && audit.contains("shop-1") && audit.contains("OUT_OF_SERVICE") && audit.contains("200 ok");
        });
        assertThat(textOf("#audit-table")).as("from where").contains("127.0.0.1");
        shot("dashboard-audit");

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
        // a server of its own, started here: the test looks at the first renewal minute after its start, which
        // the other tests would use up if it were started with them; its clients go silent after registering
        preserving = child(1);
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

    /**
     * The issue's cluster whose peer refuses our credentials: the banner says so and what to fix (missing and
     * rejected credentials told apart), the replica lists say why the peer is unavailable, the receiver logs each
     * caller once, and the self-preservation box, on a node whose instances renew, lists only the lease that did
     * lapse. Then the same page on a phone: no wider than the screen, and the sign-in form works.
     */
    @Test
    void aPeerRefusingOurCredentialsIsShownWithWhatToFixAtDesktopSizeAndOnAPhone() throws Exception {
        Http http = new Http(node.baseUrl);
        for (int i = 0; i < 4; i++) {
            assertThat(http.postJson("apps/RENEWING", instanceJson("RENEWING", "renewing-" + i, "UP", 1000))
                    .status()).isEqualTo(204);
        }
        java.util.concurrent.ScheduledExecutorService beats =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        beats.scheduleAtFixedRate(() -> {
            for (int i = 0; i < 4; i++) {
                http.put("apps/RENEWING/renewing-" + i);
            }
        }, 0, 3, java.util.concurrent.TimeUnit.SECONDS);
        // one instance that never renews its 2 s lease: the one thing the box may name
        assertThat(http.postJson("apps/GONE", instanceJson("GONE", "gone-1", "UP", 1000)
                .replace("\"durationInSecs\":90", "\"durationInSecs\":2")).status()).isEqualTo(204);
        Thread.sleep(3_000);   // GONE has lapsed before the page loads
        try {
            browser.get(node.baseUrl);
            WebElement peerBanner = browser.findElement(By.id("peer-banner"));
            waitUpTo(30).until(d -> peerBanner.isDisplayed() && peerBanner.getText().contains("no credentials")
                    && peerBanner.getText().contains("rejected the password"));
            assertThat(peerBanner.getText())
                    .contains("Peer http://127.0.0.1:" + (PORT + 2) + "/eureka/ refuses our replication (HTTP 401): it"
                            + " rejected the password we sent for user 'peer'",
                            "Peer http://localhost:" + (PORT + 2) + "/eureka/ refuses our replication (HTTP 401): we"
                            + " sent no credentials", "eureka.client.serviceUrl.defaultZone")
                    .doesNotContain("not-" + ChildServer.PEER_PASSWORD);
            // rows are rebuilt on every refresh: read them together, in one look
            List<String> peerRows = waitUpTo(10).until(d -> d.findElements(By.cssSelector("#peers-table tbody tr"))
                    .stream().map(WebElement::getText).toList());
            assertThat(peerRows).hasSize(2)
                    .allSatisfy(r -> assertThat(r).contains("REFUSES OUR REPLICATION (HTTP 401)"));
            assertThat(textOf("#replica-table")).contains("Registered replicas", "Available replicas",
                    "Unavailable replicas", "no instance of UNKNOWN with host name 127.0.0.1 is registered here");

            // lapsed leases come from the live leases: GONE lapsed, RENEWING renews
            WebElement lapsed = browser.findElement(By.id("lapsed-apps"));
            waitUpTo(30).until(d -> lapsed.isDisplayed() && lapsed.getText().contains("GONE (1)"));
            String box = textOf("#preservation");
            assertThat(box).contains("Lapsed leases", "1 in 1 app(s)").doesNotContain("RENEWING")
                    .doesNotContain("EMERGENCY").doesNotContain("would be evicted")
                    .doesNotContain("stopped renewing");
            assertThat(textOf("#banner")).doesNotContain("EMERGENCY");
            shot("dashboard-refusing-peer-1400x1000");

            onAPhone(() -> {
                browser.navigate().refresh();
                waitUpTo(30).until(d -> d.findElement(By.id("peer-banner")).isDisplayed());
                waitUpTo(15).until(d -> !d.findElements(By.cssSelector("#peers-table tbody tr")).isEmpty());
                JavascriptExecutor js = (JavascriptExecutor) browser;
                assertThat(((Number) js.executeScript("return window.innerWidth")).intValue()).isEqualTo(390);
                assertThat(((Number) js.executeScript("return document.documentElement.scrollWidth")).intValue())
                        .as("the page is no wider than the phone").isLessThanOrEqualTo(390);
                Object beyond = js.executeScript("return Array.from(document.querySelectorAll("
                        + "'header, .banner, section, footer')).filter(e => !e.hidden"
                        + " && e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.id || e.tagName)");
                assertThat((List<?>) beyond).as("every section within the screen").isEmpty();
                shot("dashboard-refusing-peer-390x844");
                signInAsAdmin();   // clicks and types: the form must be on screen and interactable
                shot("dashboard-refusing-peer-390x844-signed-in");
            });
        } finally {
            beats.shutdownNow();
        }
        // the receiver: one line per caller (address and user), whatever the number of batches refused
        List<String> refused = refusingPeer.musterLog.stream().filter(l -> l.contains("refused replication from"))
                .toList();
        assertThat(refused).hasSize(2);
        assertThat(refused).anySatisfy(l -> assertThat(l).contains("127.0.0.1", "user 'peer': wrong password"));
        assertThat(refused).anySatisfy(l -> assertThat(l).contains("it sent no credentials"));
        assertThat(node.musterLog).noneMatch(l -> l.contains("self-preservation on"));
        assertThat(severeConsoleEntries()).isEmpty();
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Emulates a 390x844 phone (its viewport meta honoured) for the step, then the desktop window again. */
    private static void onAPhone(Step step) throws Exception {
        ChromeDriver chrome = (ChromeDriver) browser;
        chrome.executeCdpCommand("Emulation.setDeviceMetricsOverride", java.util.Map.of("width", 390,
                "height", 844, "deviceScaleFactor", 3, "mobile", true));
        try {
            step.run();
        } finally {
            chrome.executeCdpCommand("Emulation.clearDeviceMetricsOverride", java.util.Map.of());
        }
    }
}
