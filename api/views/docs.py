"""The schema's two readers, Swagger UI and ReDoc, built from drf-spectacular-sidecar's
files as this site serves them: drf-spectacular's own pages have inline scripts and
styles and Google Fonts, which the site's Content-Security-Policy refuses."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from django.views.generic import TemplateView


# Swagger UI draws its icons (copy to clipboard, the arrows) as data: SVG images that
# its bundle writes itself: only this page allows data: images.
@method_decorator(csp_update({"img-src": ["data:"]}), name="dispatch")
class SwaggerUiView(TemplateView):
    template_name = "api/swagger_ui.html"


# ReDoc styles its page with styled-components, which writes <style> elements at run
# time (its bundle gives no way to hand them a nonce), draws its link icons as data:
# SVG images, and its search runs in a Worker made from a blob: URL. Only this page
# allows the three.
@method_decorator(
    csp_update({"style-src": [UNSAFE_INLINE], "img-src": ["data:"], "worker-src": ["blob:"]}),
    name="dispatch",
)
class RedocView(TemplateView):
    template_name = "api/redoc.html"
