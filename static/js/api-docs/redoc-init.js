// ReDoc for /api/v1/schema (templates/api/redoc.html).
"use strict";

(() => {
  // ReDoc's side menu always shows Redocly's logo from its CDN (no option turns it
  // off: React sets it as the attribute, then again as the property) and hides it
  // when the image fails. This page loads nothing from elsewhere, so that image gets
  // no source and is hidden from the start.
  const redoclyLogo = "https://cdn.redoc.ly/redoc/logo-mini.svg";
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function setAttributeOffline(name, value) {
    if (name === "src" && value === redoclyLogo) {
      this.hidden = true;
      return;
    }
    setAttribute.call(this, name, value);
  };
  const imageSource = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...imageSource,
    set(value) {
      if (value === redoclyLogo) {
        this.hidden = true;
        return;
      }
      imageSource.set.call(this, value);
    },
  });

  const root = document.getElementById("redoc");
  Redoc.init(root.dataset.schemaUrl, {}, root);
})();
