// Swagger UI for /api/v1/schema (templates/api/swagger_ui.html). "Try it out" sends
// the X-Session-Token given under "Authorize" (the SessionToken scheme); a browser
// signed in by cookie also sends its CSRF token, which the API asks for on writes.
"use strict";

(() => {
  const root = document.getElementById("swagger-ui");
  const csrfToken = root.dataset.csrfToken;

  const withCsrfToken = (request) => {
    if (!["GET", "HEAD", "OPTIONS", undefined].includes(request.method)) {
      request.headers["X-CSRFToken"] = csrfToken;
    }
    return request;
  };

  window.ui = SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    persistAuthorization: true,
    // The default sends the schema to validator.swagger.io: nothing leaves this site.
    validatorUrl: null,
    requestInterceptor: withCsrfToken,
  });
})();
