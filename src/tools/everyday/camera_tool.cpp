// ha_get_camera_image: a camera's snapshot (GET /api/camera_proxy/<id>,
// width/height passed on: HA scales the image) returned as MCP image content
// (base64 in the image block, never as text), with one short text line. A
// camera that is off or unavailable is a clear error, checked on the mirror
// first and again on HA's answer (503: off, 500: no image).
#include <boost/beast/core/detail/base64.hpp>

#include "tools/everyday/everyday_tools.hpp"

namespace hamcp::tools {

namespace {

using namespace everyday;

constexpr std::size_t kMaxImageBytes = std::size_t{4} << 20;  // ~5.3 MB of base64: pass width beyond that

ToolException camera_off(const std::string& entity_id) {
  return ToolException("camera_off", entity_id + " is off: Home Assistant has no image from it.",
                       "Turn it on (camera.turn_on) and call again.");
}

ToolException camera_unavailable(const std::string& entity_id, std::string_view why) {
  return ToolException("camera_unavailable", entity_id + " gave no image (" + std::string(why) + ").",
                       "Check the camera's integration or device in Home Assistant, then call again.");
}

std::string image_path(Args& args, const std::string& entity_id) {
  std::string path = "/api/camera_proxy/" + entity_id;
  char sep = '?';
  for (const char* key : {"width", "height"})
    if (args.has(key)) {
      path += sep + std::string(key) + "=" + std::to_string(args.integer(key, 0));
      sep = '&';
    }
  return path;
}

std::string base64(const std::string& bytes) {
  namespace b64 = boost::beast::detail::base64;
  std::string out(b64::encoded_size(bytes.size()), '\0');
  out.resize(b64::encode(out.data(), bytes.data(), bytes.size()));
  return out;
}

boost::asio::awaitable<mcp::ToolResult> run_camera_image(Args& args, ToolEnv& env, mcp::RequestContext&) {
  auto checking = entity_arg(args, env, "camera");
  const ha::EntityStatePtr cam = co_await std::move(checking);
  if (cam->state == "off") throw camera_off(cam->entity_id);
  if (cam->state == "unavailable") throw camera_unavailable(cam->entity_id, "its state is unavailable");
  ha::Response r;
  try {
    auto getting = env.ha.rest_get(image_path(args, cam->entity_id));
    r = co_await std::move(getting);
  } catch (const ha::HaException& e) {
    throw ToolException(from_ha_error(e.error()));
  }
  if (r.status == 503) throw camera_off(cam->entity_id);
  if (r.status == 404) throw ToolException(unknown_entity(env.index, cam->entity_id));
  if (r.status == 500) throw camera_unavailable(cam->entity_id, "Home Assistant could not get an image");
  if (!r.ok()) throw_http_failure(r.status, r.body);
  std::string mime = r.content_type.substr(0, r.content_type.find(';'));
  if (mime.rfind("image/", 0) != 0) throw camera_unavailable(cam->entity_id, "the answer was not an image");
  if (r.body.size() > kMaxImageBytes)
    throw ToolException(bad_argument("width", "the image is " + std::to_string(r.body.size() >> 10) + " KB",
                                     "Ask for a smaller one, e.g. width=640."));
  json::object about{{"entity_id", cam->entity_id}, {"mime_type", mime}, {"bytes", r.body.size()}};
  mcp::ToolResult result;
  result.content.push_back(mcp::content::text(json::serialize(about)));
  result.content.push_back(mcp::content::image(base64(r.body), mime));
  result.structured_content = std::move(about);  // what the image is; the image itself only in its block
  co_return result;
}

}  // namespace

ToolSpec make_get_camera_image_spec() {
  ToolSpec s;
  s.name = "ha_get_camera_image";
  s.title = "Camera snapshot";
  s.description = "A camera's current image, as image content; width/height scale it down.";
  s.input_schema = R"J({"type":"object","properties":{"entity_id":{"type":"string"},
"width":{"type":"integer","minimum":1},"height":{"type":"integer","minimum":1}},"required":["entity_id"]})J";
  s.output_schema = R"J({"type":"object","properties":{"mime_type":{"type":"string"}}})J";
  s.annotations = read_only();
  s.run = run_camera_image;
  return s;
}

}  // namespace hamcp::tools
