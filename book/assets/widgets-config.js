// Serve every piece of the widget machinery from the book itself.
// require.js is loaded just before this file and the widget manager just after.
// By default the manager fetches third-party widget code (anywidget) from a CDN,
// and its bundled modules look for their fonts beside their require.js module
// URL, which would otherwise resolve against the page's folder. Mapping both
// to our own copies keeps the page offline-clean and free of 404s.
(function () {
  var here = document.currentScript.src;
  var base = here.substring(0, here.lastIndexOf("/") + 1);
  window.__jupyter_widgets_assets_path__ = base + "html-manager/";
  var manager = base + "html-manager";
  window.require.config({
    paths: {
      anywidget: base + "anywidget/index",
      "@jupyter-widgets/html-manager/dist": manager,
      "@jupyter-widgets": manager, // @jupyter-widgets/base, /controls, ...: fonts sit in the same folder
    },
  });
})();
