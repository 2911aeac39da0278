// Muster dashboard: plain JavaScript, no build step, no external resources.
// Reads api/status (server state) and apps/ (the registry, JSON); every value from clients is inserted as
// text, never as HTML.
(function () {
  'use strict';
  var REFRESH_MS = 5000;
  var PAGE_SIZE = 50;
  var state = { status: null, apps: [], page: 0, expanded: {}, admin: null, query: '', timelineQuery: '', auditApp: '' };

  function $(id) { return document.getElementById(id); }
  /** ", set by operator admin at 12:00:03": who set an override, from the server's own record. */
  function overrideSetter(app, id) {
    var list = (state.status && state.status.overrideDetails) || [];
    for (var k = 0; k < list.length; k++) {
      if (list[k].app === app && list[k].id === id) {
        return ', set by ' + list[k].setBy + ' at ' + new Date(list[k].at).toLocaleTimeString();
      }
    }
    return '';
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function row(cells) {
    var tr = document.createElement('tr');
    cells.forEach(function (c) {
      var td = document.createElement('td');
      if (c instanceof Node) { td.appendChild(c); } else { td.textContent = c === undefined || c === null ? '' : String(c); }
      tr.appendChild(td);
    });
    return tr;
  }
  function kv(table, pairs) {
    table.replaceChildren();
    pairs.forEach(function (p) {
      var tr = document.createElement('tr');
      tr.appendChild(el('th', p[0]));
      var td = el('td');
      if (p[1] instanceof Node) { td.appendChild(p[1]); } else { td.textContent = p[1] === undefined || p[1] === null ? '' : String(p[1]); }
      tr.appendChild(td);
      table.appendChild(tr);
    });
  }
  function duration(seconds) {
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600), m = Math.floor(seconds % 3600 / 60);
    return (d ? d + 'd ' : '') + h + 'h ' + m + 'm';
  }
  function time(ms) { return ms ? new Date(Number(ms)).toISOString().replace('T', ' ').replace('Z', '') : ''; }
  /** An ISO instant from the server, to the millisecond (the server's clock has nanoseconds), with its age. */
  function when(iso) {
    if (!iso) { return ''; }
    var at = Date.parse(iso), now = state.status ? Date.parse(state.status.currentTime) : Date.now();
    return time(at) + ' (' + age(Math.round((now - at) / 1000)) + ')';
  }
  function age(seconds) {
    if (seconds < 0) { return 'in ' + age(-seconds).replace(' ago', ''); }
    if (seconds < 60) { return seconds + ' s ago'; }
    if (seconds < 3600) { return Math.floor(seconds / 60) + ' min ' + seconds % 60 + ' s ago'; }
    return duration(seconds) + ' ago';
  }
  function mb(bytes) { return Math.round(bytes / 1048576) + ' MB'; }

  function getJson(path, extraHeaders) {
    var headers = Object.assign({ 'Accept': 'application/json' }, extraHeaders || {});
    return fetch(path, { headers: headers, cache: 'no-store', credentials: 'omit' }).then(function (r) {
      if (!r.ok) { throw new Error(path + ': HTTP ' + r.status); }
      return r.json();
    });
  }

  function refresh() {
    return Promise.all([getJson('api/status'), getJson('apps/').catch(function () { return null; })])
      .then(function (results) {
        state.status = results[0];
        state.apps = results[1] ? results[1].applications.application : [];
        render();
        return refreshAudit();
      })
      .catch(function (e) { console.warn('refresh failed', e.message); });
  }

  /** The audit trail, newest first: admins only, so it is fetched with their credentials once signed in. */
  function refreshAudit() {
    if (!state.admin) { return null; }
    var q = state.auditApp.trim();
    return getJson('api/audit?limit=200' + (q ? '&app=' + encodeURIComponent(q) : ''),
      { 'Authorization': state.admin.authorization, 'X-Muster-Dashboard': '1' })
      .then(renderAudit)
      .catch(function (e) { console.warn('audit refresh failed', e.message); });
  }

  function renderAudit(trail) {
    var body = $('audit-table').tBodies[0];
    body.replaceChildren();
    trail.entries.forEach(function (e) {
      var f = e.from || {};
      var from = [f.address, [f.identityName, f.identityVersion].filter(Boolean).join(' '), f.identityId ? 'id ' + f.identityId : '']
        .filter(Boolean).join(', ');
      var tr = row([when(e.at), e.who, from, e.action, e.app, e.instance, e.value, e.status + ' ' + e.result]);
      tr.lastChild.className = 'result-' + e.result;
      body.appendChild(tr);
    });
    $('audit-note').textContent = '(last ' + trail.maxEntries + ' kept' + (trail.dropped ? ', ' + trail.dropped + ' dropped' : '') + ')';
    $('audit').hidden = false;
  }

  function render() {
    var s = state.status, sp = s.selfPreservation;
    $('version').textContent = s.version;
    kv($('system-table'), [
      ['Environment', s.environment], ['Data center', s.dataCenter], ['Current time', time(Date.parse(s.currentTime))],
      ['Uptime', duration(s.uptimeSeconds)], ['Lease expiration enabled', sp.leaseExpirationEnabled],
      ['Renews threshold', sp.renewalThreshold], ['Renews (last min)', sp.renewalsLastMinute],
      ['Registered instances', s.instances], ['Applications', s.applications],
      ['Reads allowed', s.readsAllowed ? 'yes' : s.readsHeldUntil
        ? 'no: no peer could be reached at start; until a sync succeeds or ' + when(s.readsHeldUntil)
        : 'no (starting)']
    ]);
    renderBanner(sp);
    renderPreservation(sp);
    renderPeers(s.peers, s.replicas);
    renderRegions(s.remoteRegions || []);
    renderApps();
    renderTimeline(s.recentActivity);
    renderSettings(s.settings);
    kv($('general-table'), [
      ['CPUs', s.jvm.cpus], ['Heap used', mb(s.jvm.heapUsedBytes)], ['Heap max', mb(s.jvm.heapMaxBytes)],
      ['Started', when(s.startedAt)], ['Evicted since start', s.evictedTotal],
      ['Response cache', 'hits ' + s.responseCache.hits + ', builds ' + s.responseCache.builds + ' (' + s.responseCache.buildMillis + ' ms)'],
      ['Status overrides', s.statusOverrideCount]
    ]);
  }

  /** The server's verdict decides the banner; the page does no arithmetic of its own on renewals. */
  function renderBanner(sp) {
    var b = $('banner');
    b.hidden = false;
    if (sp.mode === 'MEASURING') {
      // the renewal count covers less than a minute since the start or the last sync: few renewals mean
      // "not measured yet", not "clients are gone"
      b.textContent = 'Measuring renewals: the first full minute since the start (or the last sync) ends '
        + when(sp.measuringUntil) + '. Until then lapsed instances are kept; no emergency.';
      b.className = 'banner info';
    } else if (sp.mode === 'PRESERVING') {
      b.textContent = 'EMERGENCY! Self-preservation is on: renewals (' + sp.renewalsLastMinute
        + ' in the last minute) are at or below the threshold (' + sp.renewalThreshold
        + '), so lapsed instances are NOT being removed. The registry may list instances that are gone.';
      b.className = 'banner';
    } else if (sp.mode === 'OFF') {
      b.textContent = 'Self-preservation is turned off: lapsed instances are always removed, even during a network partition.';
      b.className = 'banner off';
    } else {
      b.hidden = true;
    }
  }

  /**
   * What self-preservation does and why, and which leases have lapsed: all from the server, which reads the live
   * leases (the registry payload's renewal timestamps trail by up to its cache's age).
   */
  function renderPreservation(sp) {
    $('preservation-reason').textContent = sp.reason.charAt(0).toUpperCase() + sp.reason.slice(1) + '.';
    $('preservation-counting').textContent = 'What counts: ' + sp.counting + '.';
    var l = sp.lapsed, lapsed;
    var kept = sp.mode !== 'EXPIRING' && sp.mode !== 'OFF';
    if (l.instances === 0) {
      lapsed = 'none: every lease was renewed within its duration';
    } else if (!kept) {
      lapsed = l.instances + ' in ' + l.apps + ' app(s): eviction removes them, at most ' + l.perEvictionPass + ' per pass';
    } else {
      lapsed = l.instances + ' in ' + l.apps + ' app(s), kept for now; with expiry allowed, an eviction pass would remove at most '
        + l.perEvictionPass;
    }
    kv($('preservation-table'), [
      ['Enabled', sp.enabled], ['Expected clients', sp.expectedClients],
      ['Actual renewals (last min)', sp.renewalsLastMinute], ['Threshold', sp.renewalThreshold],
      ['Lapsed leases', lapsed]
    ]);
    var apps = $('lapsed-apps');
    apps.hidden = l.instances === 0;
    var more = l.apps - l.largest.length;
    apps.textContent = 'Apps with lapsed leases: ' + l.largest.map(function (a) { return a.app + ' (' + a.lapsed + ')'; }).join(', ')
      + (more > 0 ? ' and ' + more + ' more app(s)' : '');
  }

  /** One banner for every peer that refuses our replication, saying what to fix (the server words it). */
  function renderPeerBanner(peers) {
    var b = $('peer-banner');
    var refusing = peers.filter(function (p) { return p.refusal; });
    b.replaceChildren();
    b.hidden = refusing.length === 0;
    refusing.forEach(function (p) {
      var line = el('p', 'Peer ' + p.url + ' ' + p.refusal.problem + '. Replication to it is dropped. To fix: '
        + p.refusal.fix + '.');
      line.dataset.refusal = p.refusal.kind;
      b.appendChild(line);
    });
  }

  function peerState(p, unavailable) {
    var state = !p.reachable ? 'UNREACHABLE' : p.refusal ? 'REFUSES OUR REPLICATION (HTTP ' + p.refusal.status + ')' : 'reachable';
    return unavailable.indexOf(p.url) >= 0 ? state + '; unavailable replica (see below)' : state;
  }

  function renderPeers(peers, replicas) {
    var body = $('peers-table').tBodies[0];
    body.replaceChildren();
    renderPeerBanner(peers);
    renderReplicas(replicas);
    if (!peers.length) { body.appendChild(row(['no peers configured: this node runs alone'])); return; }
    peers.forEach(function (p) {
      body.appendChild(row([p.url, peerState(p, replicas.unavailable), p.lastSuccess ? when(p.lastSuccess) : 'never', p.queueDepth,
        p.sent, p.failedBatches, p.dropped, lag(p), sync(p.sync), p.lastError || '']));
    });
  }

  /** Eureka's registered / available / unavailable lists, and why each unavailable one does not count. */
  function renderReplicas(r) {
    var unavailable = el('div');
    r.unavailable.forEach(function (url) { unavailable.appendChild(el('p', url + ': ' + r.whyUnavailable[url], 'why')); });
    if (!r.unavailable.length) { unavailable.textContent = 'none'; }
    kv($('replica-table'), [
      ['Registered replicas', r.registered.join(', ') || 'none'],
      ['Available replicas', r.available.join(', ') || 'none'],
      ['Unavailable replicas', unavailable],
      ['This node registers as host', r.selfHostName || '(not registered: no peers, or registerWithEureka=false)']
    ]);
  }

  // each remote region's freshness: when its registry was last fetched (with the age), and how fetches went
  function renderRegions(regions) {
    var body = $('regions-table').tBodies[0];
    body.replaceChildren();
    if (!regions.length) { body.appendChild(row(['no remote regions configured'])); return; }
    regions.forEach(function (r) {
      body.appendChild(row([r.name, r.url, r.fetchedAt ? r.fetchedAt + ' (' + r.ageSeconds + ' s ago)' : 'never',
        r.applications, r.instances, r.appsHashCode, r.fullFetches + ' / ' + r.deltaFetches + ' / ' + r.deltaMismatches,
        r.failures, r.lastError || '']));
    });
  }

  function lag(p) {
    if (p.lagP50Seconds === null || p.lagP50Seconds === undefined) { return 'none in the last minute'; }
    return Math.round(p.lagP50Seconds * 1000) + ' ms / ' + Math.round(p.lagP99Seconds * 1000) + ' ms';
  }

  function sync(c) {
    if (!c) { return ''; }
    var text = c.summary + (c.repairs ? ' (' + c.repairs + ' repaired)' : '');
    return c.note ? text + '; ' + c.note : text;
  }

  function matches(app, q) {
    if (!q) { return true; }
    if (app.name.toLowerCase().indexOf(q) >= 0) { return true; }
    return app.instance.some(function (i) {
      return (i.instanceId || '').toLowerCase().indexOf(q) >= 0 || (i.hostName || '').toLowerCase().indexOf(q) >= 0
        || i.status.toLowerCase() === q;
    });
  }

  function renderApps() {
    var q = state.query.trim().toLowerCase();
    var apps = state.apps.filter(function (a) { return matches(a, q); })
      .sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
    var pages = Math.max(1, Math.ceil(apps.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    $('page').textContent = 'page ' + (state.page + 1) + ' of ' + pages;
    $('app-count').textContent = '(' + apps.length + ' apps)';
    var body = $('apps-table').tBodies[0];
    body.replaceChildren();
    apps.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE).forEach(function (app) {
      var counts = {};
      app.instance.forEach(function (i) { counts[i.status] = (counts[i.status] || 0) + 1; });
      var summary = el('span');
      Object.keys(counts).sort().forEach(function (s) {
        summary.appendChild(el('span', s + ' (' + counts[s] + ') ', 'status-' + s));
      });
      var tr = row([app.name, app.instance.length, summary]);
      tr.className = 'app';
      tr.dataset.app = app.name;
      tr.addEventListener('click', function () { state.expanded[app.name] = !state.expanded[app.name]; renderApps(); });
      body.appendChild(tr);
      if (state.expanded[app.name]) {
        app.instance.forEach(function (i) {
          var link = el('span', i.instanceId || i.hostName, 'link');
          link.dataset.instance = i.instanceId || i.hostName;
          link.addEventListener('click', function (ev) { ev.stopPropagation(); openInstance(app.name, link.dataset.instance); });
          var detail = el('span', i.ipAddr + ':' + (i.port ? i.port.$ : '') + ' ');
          detail.appendChild(el('span', i.status, 'status-' + i.status));
          if (i.overriddenStatus && i.overriddenStatus !== 'UNKNOWN') { detail.appendChild(el('span', ' (override ' + i.overriddenStatus + overrideSetter(app.name, i.instanceId) + ')')); }
          var r = row(['', link, detail]);
          r.className = 'instances';
          body.appendChild(r);
        });
      }
    });
  }

  function renderTimeline(activity) {
    var q = state.timelineQuery.trim().toUpperCase();
    var body = $('timeline-table').tBodies[0];
    body.replaceChildren();
    activity.filter(function (a) { return !q || a.app.indexOf(q) >= 0; }).slice(0, 200).forEach(function (a) {
      body.appendChild(row([when(a.at), a.kind, a.app, a.id, a.status]));
    });
  }

  /**
   * The effective settings with where each came from; first what the next start would read differently, then what
   * the operator wrote that Muster does not use or that another source overrides.
   */
  function renderSettings(settings) {
    var sources = settings.sources || {};
    var plain = Object.keys(settings).filter(function (k) {
      return settings[k] === null || typeof settings[k] !== 'object';
    }).sort();
    var table = $('settings-table');
    table.replaceChildren();
    plain.forEach(function (k) {
      var tr = document.createElement('tr');
      tr.appendChild(el('th', k));
      tr.appendChild(el('td', settings[k] === null ? '' : String(settings[k])));
      tr.appendChild(el('td', sources[k] || 'default', 'source'));
      table.appendChild(tr);
    });
    var box = $('settings-notes');
    box.replaceChildren();
    box.appendChild(el('p', 'Read at start: a changed setting takes effect at the next start (Tomcat: reload or'
        + ' redeploy; Payara: disable and enable, or redeploy).'));
    var next = settings.nextStart;
    if (next && next.failure) {
      box.appendChild(el('p', 'The next start would fail: ' + next.failure, 'error'));
    }
    ((next && next.changes) || []).forEach(function (c) {
      box.appendChild(el('p', 'Not yet in effect: ' + c.name + ' is ' + (c.inEffect === null ? 'unset' : c.inEffect)
          + ', and ' + c.source + ' now gives ' + (c.next === null ? 'nothing' : c.next) + ' (from the next start)',
          'warning'));
    });
    (settings.unknownKeys || []).forEach(function (n) { box.appendChild(el('p', 'Unknown setting ' + n.key + ': ' + n.note, 'error')); });
    (settings.keysWithoutEffect || []).forEach(function (n) { box.appendChild(el('p', n.key + ': ' + n.note)); });
    (settings.shadowedKeys || []).forEach(function (n) { box.appendChild(el('p', n.key + ' ' + n.note)); });
  }

  function flatten(prefix, value, out) {
    if (value !== null && typeof value === 'object') {
      Object.keys(value).forEach(function (k) { flatten(prefix ? prefix + '.' + k : k, value[k], out); });
    } else {
      out.push([prefix, /Timestamp$/.test(prefix) && Number(value) > 0 ? value + '  (' + time(value) + ')' : value]);
    }
    return out;
  }

  function openInstance(app, id) {
    getJson('apps/' + encodeURIComponent(app) + '/' + encodeURIComponent(id)).then(function (doc) {
      var i = doc.instance;
      $('instance-title').textContent = app + ' / ' + id;
      kv($('instance-table'), flatten('', i, []));
      var actions = $('instance-actions');
      actions.hidden = !state.admin;
      actions.dataset.app = app;
      actions.dataset.id = id;
      $('instance-dialog').showModal();
    }).catch(function (e) { alert('Cannot load the instance: ' + e.message); });
  }

  var CONFIRM = {
    'out-of-service': 'Set this instance OUT_OF_SERVICE? Clients stop routing to it; the override stays until removed, even when the instance re-registers.',
    'remove-override': 'Remove the status override? The status becomes UNKNOWN until the instance\'s next heartbeat, which makes it register again with its own status.',
    'deregister': 'Deregister this instance? It disappears from the registry now; a live instance registers again on its next heartbeat (within about 30 s).'
  };

  function act(action) {
    var box = $('instance-actions');
    if (!window.confirm(CONFIRM[action])) { return; }
    // tokens expire (10 to 20 minutes): take a fresh one for each action
    getJson('api/admin/csrf', { 'Authorization': state.admin.authorization, 'X-Muster-Dashboard': '1' }).then(function (c) {
      return fetch('api/admin/instances/' + encodeURIComponent(box.dataset.app) + '/' + encodeURIComponent(box.dataset.id) + '/' + action, {
        method: 'POST', credentials: 'omit', cache: 'no-store',
        headers: { 'Authorization': state.admin.authorization, 'X-Muster-Dashboard': '1', 'X-Muster-CSRF': c.token }
      });
    }).then(function (r) {
      if (!r.ok) { throw new Error('HTTP ' + r.status); }
      $('instance-dialog').close();
      return refresh();
    }).catch(function (e) { alert('The action failed: ' + e.message); });
  }

  function signIn(ev) {
    ev.preventDefault();
    var authorization = 'Basic ' + btoa(unescape(encodeURIComponent($('user').value + ':' + $('password').value)));
    getJson('api/admin/csrf', { 'Authorization': authorization, 'X-Muster-Dashboard': '1' }).then(function (c) {
      state.admin = { authorization: authorization, user: $('user').value };
      $('sign-in').hidden = true;
      $('sign-in-open').hidden = true;
      $('signed-in').hidden = false;
      $('signed-in').textContent = 'admin: ' + state.admin.user;
      $('password').value = '';
      return refreshAudit();
    }).catch(function () { $('sign-in-error').textContent = 'not an admin (wrong user, password or role)'; });
  }

  $('sign-in-open').addEventListener('click', function () { $('sign-in').hidden = false; $('sign-in-open').hidden = true; });
  $('sign-in').addEventListener('submit', signIn);
  $('search').addEventListener('input', function (e) { state.query = e.target.value; state.page = 0; renderApps(); });
  $('timeline-filter').addEventListener('input', function (e) { state.timelineQuery = e.target.value; if (state.status) { renderTimeline(state.status.recentActivity); } });
  $('audit-filter').addEventListener('input', function (e) { state.auditApp = e.target.value; refreshAudit(); });
  $('prev').addEventListener('click', function () { state.page = Math.max(0, state.page - 1); renderApps(); });
  $('next').addEventListener('click', function () { state.page++; renderApps(); });
  $('instance-close').addEventListener('click', function () { $('instance-dialog').close(); });
  Array.prototype.forEach.call(document.querySelectorAll('#instance-actions button'), function (b) {
    b.addEventListener('click', function () { act(b.dataset.action); });
  });
  $('interval').textContent = REFRESH_MS / 1000;
  refresh();
  // Registry changes arrive on the change stream and refresh the page within a moment; the poll stays as the
  // fallback (no EventSource, the stream refused or down) and for figures that change without an event
  // (renewal counts), less often while the stream is open. The registry's fetch cache may trail an event by up to
  // its refresh interval (500 ms by default), so each burst of events refreshes twice: soon, and once more after
  // the cache has surely caught up. Opening the stream refreshes too: changes made before it opened have no event.
  var streamOpen = false, soon = null, later = null, lastPoll = Date.now();
  function refreshAfterChange() {
    lastPoll = Date.now();
    if (!soon) { soon = setTimeout(function () { soon = null; refresh(); }, 300); }
    if (later) { clearTimeout(later); }
    later = setTimeout(function () { later = null; refresh(); }, 1500);
  }
  if (window.EventSource) {
    var changes = new EventSource('api/changes');
    changes.onopen = function () { streamOpen = true; refreshAfterChange(); };
    changes.onerror = function () { streamOpen = false; };
    ['registered', 'updated', 'metadata', 'status', 'override-deleted', 'cancelled', 'expired', 'reset']
      .forEach(function (type) { changes.addEventListener(type, refreshAfterChange); });
  }
  setInterval(function () {
    if (!streamOpen || Date.now() - lastPoll >= 6 * REFRESH_MS) { lastPoll = Date.now(); refresh(); }
  }, REFRESH_MS);
}());
