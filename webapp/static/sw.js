/* The table scorer's service worker: the app shell from the cache, pages from the network with the last copy
   kept, so a phone that loses the Wi-Fi still shows the last state it read (read-only: app.js disables forms).
   Only GET requests are handled: a form sent while offline simply fails and is never replayed later, so nothing
   reaches the server twice on reconnect. */
var SHELL = "shell-v1", PAGES = "pages-v1";
var SHELL_FILES = ["/static/app.css", "/static/app.js", "/static/icon.svg", "/static/icon-192.png", "/offline"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(SHELL_FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== SHELL && n !== PAGES; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0) return;  // live polls: the page's own code copes with failures
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(request).then(function (hit) { return hit || caches.match("/offline"); });
    }));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {  // the shell: cached copy first, refreshed in the background
    event.respondWith(caches.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) { var copy = response.clone(); caches.open(SHELL).then(function (c) { c.put(request, copy); }); }
        return response;
      });
      return hit || fresh;
    }));
  }
});
