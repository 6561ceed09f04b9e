// Minimal JSON value, parser and writer for the trainer's line protocol (objects, arrays,
// numbers, strings, booleans, null). Enough for one request per line; not a general library.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Json {
  enum Kind { Null, Bool, Num, Str, Arr, Obj } kind = Null;
  bool b = false;
  double n = 0;
  std::string s;
  std::vector<Json> a;
  std::map<std::string, Json> o;

  bool has(const std::string & k) const { return kind == Obj && o.count(k) > 0 && o.at(k).kind != Null; }
  const Json & at(const std::string & k) const {
    static const Json none;
    if (kind != Obj) return none;
    auto it = o.find(k);
    return it == o.end() ? none : it->second;
  }
  double num(const std::string & k, double dflt) const { const Json & v = at(k); return v.kind == Num ? v.n : dflt; }
  std::string str(const std::string & k, const std::string & dflt) const { const Json & v = at(k); return v.kind == Str ? v.s : dflt; }
  // Required fields: the app sends every option (one declaration of defaults, on the TypeScript side).
  double need_num(const std::string & k) const {
    const Json & v = at(k);
    if (v.kind != Num) throw std::runtime_error("request needs the number \"" + k + "\"");
    return v.n;
  }
  std::string need_str(const std::string & k) const {
    const Json & v = at(k);
    if (v.kind != Str) throw std::runtime_error("request needs the string \"" + k + "\"");
    return v.s;
  }
  // A required key whose value is a string or null ("" for null).
  std::string need_str_or_null(const std::string & k) const {
    if (kind != Obj || !o.count(k)) throw std::runtime_error("request needs the key \"" + k + "\" (a string or null)");
    const Json & v = o.at(k);
    if (v.kind == Null) return "";
    if (v.kind != Str) throw std::runtime_error("\"" + k + "\" must be a string or null");
    return v.s;
  }
  bool need_bool(const std::string & k) const {
    const Json & v = at(k);
    if (v.kind != Bool) throw std::runtime_error("request needs the boolean \"" + k + "\"");
    return v.b;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string & text) : t(text) {}
  Json parse() {
    Json v = value();
    ws();
    if (i != t.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string & t;
  size_t i = 0;
  [[noreturn]] void fail(const char * what) { throw std::runtime_error(std::string("bad JSON: ") + what + " at " + std::to_string(i)); }
  void ws() { while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++; }
  bool lit(const char * w) {
    size_t n = strlen(w);
    if (t.compare(i, n, w) == 0) { i += n; return true; }
    return false;
  }
  Json value() {
    ws();
    if (i >= t.size()) fail("unexpected end");
    Json v;
    char c = t[i];
    if (c == '{') {
      v.kind = Json::Obj; i++; ws();
      if (i < t.size() && t[i] == '}') { i++; return v; }
      for (;;) {
        ws();
        if (i >= t.size() || t[i] != '"') fail("expected key");
        std::string k = string();
        ws();
        if (i >= t.size() || t[i] != ':') fail("expected ':'");
        i++;
        v.o[k] = value();
        ws();
        if (i < t.size() && t[i] == ',') { i++; continue; }
        if (i < t.size() && t[i] == '}') { i++; return v; }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Json::Arr; i++; ws();
      if (i < t.size() && t[i] == ']') { i++; return v; }
      for (;;) {
        v.a.push_back(value());
        ws();
        if (i < t.size() && t[i] == ',') { i++; continue; }
        if (i < t.size() && t[i] == ']') { i++; return v; }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') { v.kind = Json::Str; v.s = string(); return v; }
    if (lit("true")) { v.kind = Json::Bool; v.b = true; return v; }
    if (lit("false")) { v.kind = Json::Bool; return v; }
    if (lit("null")) return v;
    char * end = nullptr;
    v.n = strtod(t.c_str() + i, &end);
    if (end == t.c_str() + i) fail("unexpected character");
    i = end - t.c_str();
    v.kind = Json::Num;
    return v;
  }
  std::string string() {
    i++;  // opening quote
    std::string out;
    while (i < t.size() && t[i] != '"') {
      char c = t[i++];
      if (c != '\\') { out += c; continue; }
      if (i >= t.size()) fail("bad escape");
      char e = t[i++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i + 4 > t.size()) fail("bad \\u escape");
          unsigned cp = std::stoul(t.substr(i, 4), nullptr, 16);
          i += 4;
          // Paths and messages only: encode the code point as UTF-8 (no surrogate pairing).
          if (cp < 0x80) out += char(cp);
          else if (cp < 0x800) { out += char(0xC0 | (cp >> 6)); out += char(0x80 | (cp & 0x3F)); }
          else { out += char(0xE0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
          break;
        }
        default: out += e;
      }
    }
    if (i >= t.size()) fail("unterminated string");
    i++;
    return out;
  }
};

// Every key of a request must be one the command reads: a misspelt option is an error, never ignored.
inline void require_keys(const Json & req, std::initializer_list<const char *> allowed) {
  if (req.kind != Json::Obj) throw std::runtime_error("a request must be a JSON object");
  for (const auto & kv : req.o) {
    bool known = false;
    for (const char * a : allowed) known = known || kv.first == a;
    if (!known) throw std::runtime_error("unknown key \"" + kv.first + "\" in a \"" + req.str("cmd", "") + "\" request");
  }
}

inline std::string jsonQuote(const std::string & s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += char(c); }
    else if (c == '\n') out += "\\n";
    else if (c < 0x20) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
    else out += char(c);
  }
  return out + "\"";
}

// One reply object, written field by field; numbers at full double precision (17 significant digits),
// so a figure read back in the app is the one the trainer computed.
class JsonOut {
 public:
  JsonOut & num(const char * k, double v) {
    char buf[32];
    if (std::isfinite(v)) snprintf(buf, sizeof buf, "%.17g", v);
    else snprintf(buf, sizeof buf, "null");
    return raw(k, buf);
  }
  JsonOut & integer(const char * k, long long v) { return raw(k, std::to_string(v)); }
  JsonOut & boolean(const char * k, bool v) { return raw(k, v ? "true" : "false"); }
  JsonOut & str(const char * k, const std::string & v) { return raw(k, jsonQuote(v)); }
  JsonOut & null(const char * k) { return raw(k, "null"); }
  JsonOut & raw(const char * k, const std::string & json) {
    body += (body.empty() ? "" : ",") + jsonQuote(k) + ":" + json;
    return *this;
  }
  std::string done() const { return "{" + body + "}"; }

 private:
  std::string body;
};
