// YAML-to-JSON conversion and the draft-07 subset validator; see json_schema.hpp.
#include "tests/story/json_schema.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>

namespace schema_test {
namespace {

using nlohmann::json;

json scalar_to_json(const YAML::Node& node) {
    const std::string& s = node.Scalar();
    if (node.Tag() == "!") return s;  // quoted: always a string
    static const std::regex null_re("~|null|Null|NULL|"), true_re("true|True|TRUE"),
        false_re("false|False|FALSE"), int_re("[-+]?[0-9]+"),
        float_re(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    if (std::regex_match(s, null_re)) return nullptr;
    if (std::regex_match(s, true_re)) return true;
    if (std::regex_match(s, false_re)) return false;
    if (std::regex_match(s, int_re)) return std::stoll(s);
    if (std::regex_match(s, float_re)) return std::stod(s);
    return s;
}

json node_to_json(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Scalar:
            return scalar_to_json(node);
        case YAML::NodeType::Sequence: {
            json out = json::array();
            for (const auto& item : node) out.push_back(node_to_json(item));
            return out;
        }
        case YAML::NodeType::Map: {
            json out = json::object();
            for (const auto& kv : node) out[kv.first.Scalar()] = node_to_json(kv.second);
            return out;
        }
        default:
            return nullptr;
    }
}

bool has_type(const json& value, const std::string& type) {
    if (type == "object") return value.is_object();
    if (type == "array") return value.is_array();
    if (type == "string") return value.is_string();
    if (type == "boolean") return value.is_boolean();
    if (type == "null") return value.is_null();
    if (type == "integer") return value.is_number_integer();
    if (type == "number") return value.is_number();
    return false;
}

class Validator {
  public:
    explicit Validator(const json& root) : root_(root) {}

    void check(const json& schema, const json& value, const std::string& path,
               std::vector<std::string>& errors) const {
        if (schema.is_boolean()) {
            if (!schema.get<bool>()) errors.push_back(path + ": not allowed");
            return;
        }
        if (schema.contains("$ref")) return check(resolve(schema["$ref"]), value, path, errors);
        for (const auto& [keyword, argument] : schema.items()) {
            keyword_check(keyword, argument, schema, value, path, errors);
        }
    }

  private:
    const json& resolve(const std::string& ref) const {
        if (ref.rfind("#", 0) != 0) throw std::runtime_error("only local $ref: " + ref);
        return root_.at(json::json_pointer(ref.substr(1)));
    }

    bool valid(const json& schema, const json& value) const {
        std::vector<std::string> errors;
        check(schema, value, "", errors);
        return errors.empty();
    }

    void keyword_check(const std::string& keyword, const json& arg, const json& schema,
                       const json& value, const std::string& path,
                       std::vector<std::string>& errors) const {
        static const std::set<std::string> annotations{
            "$schema", "$id", "title", "description", "default", "examples", "definitions", "then"};
        const auto fail = [&](const std::string& message) {
            errors.push_back(path + ": " + message);
        };
        if (annotations.count(keyword)) return;
        if (keyword == "type") {
            const json types = arg.is_array() ? arg : json::array({arg});
            bool any = false;
            for (const auto& t : types) any = any || has_type(value, t.get<std::string>());
            if (!any) fail("expected " + arg.dump() + ", got " + value.dump());
        } else if (keyword == "enum") {
            if (std::find(arg.begin(), arg.end(), value) == arg.end())
                fail(value.dump() + " is not one of " + arg.dump());
        } else if (keyword == "const") {
            if (value != arg) fail("expected " + arg.dump() + ", got " + value.dump());
        } else if (keyword == "pattern") {
            if (value.is_string() &&
                !std::regex_search(value.get<std::string>(), std::regex(arg.get<std::string>())))
                fail(value.dump() + " does not match " + arg.get<std::string>());
        } else if (keyword == "minimum") {
            if (value.is_number() && value.get<double>() < arg.get<double>())
                fail(value.dump() + " < " + arg.dump());
        } else if (keyword == "maximum") {
            if (value.is_number() && value.get<double>() > arg.get<double>())
                fail(value.dump() + " > " + arg.dump());
        } else if (keyword == "minItems") {
            if (value.is_array() && value.size() < arg.get<std::size_t>()) fail("too few items");
        } else if (keyword == "items") {
            if (value.is_array())
                for (std::size_t i = 0; i < value.size(); ++i)
                    check(arg, value[i], path + "/" + std::to_string(i), errors);
        } else if (keyword == "required") {
            if (value.is_object())
                for (const auto& key : arg)
                    if (!value.contains(key.get<std::string>()))
                        fail("missing required key " + key.dump());
        } else if (keyword == "properties") {
            if (value.is_object())
                for (const auto& [key, item] : value.items())
                    if (arg.contains(key)) check(arg[key], item, path + "/" + key, errors);
        } else if (keyword == "additionalProperties") {
            if (!value.is_object()) return;
            const json& known =
                schema.contains("properties") ? schema["properties"] : json::object();
            for (const auto& [key, item] : value.items()) {
                if (known.contains(key)) continue;
                if (arg == false)
                    fail("unknown key '" + key + "'");
                else
                    check(arg, item, path + "/" + key, errors);
            }
        } else if (keyword == "propertyNames") {
            if (value.is_object())
                for (const auto& [key, item] : value.items())
                    check(arg, key, path + "/" + key + " (name)", errors);
        } else if (keyword == "allOf") {
            for (const auto& sub : arg) check(sub, value, path, errors);
        } else if (keyword == "anyOf" || keyword == "oneOf") {
            int matched = 0;
            for (const auto& sub : arg) matched += valid(sub, value) ? 1 : 0;
            if (matched == 0 || (keyword == "oneOf" && matched > 1))
                fail(value.dump() + " matches " + std::to_string(matched) + " of the " + keyword +
                     " choices");
        } else if (keyword == "if") {
            if (valid(arg, value) && schema.contains("then"))
                check(schema["then"], value, path, errors);
        } else {
            fail("schema uses '" + keyword + "', which this validator does not implement");
        }
    }

    const json& root_;
};

}  // namespace

json yaml_to_json(const std::string& yaml_text) { return node_to_json(YAML::Load(yaml_text)); }

std::vector<std::string> validate(const json& schema, const json& value) {
    std::vector<std::string> errors;
    Validator(schema).check(schema, value, "", errors);
    return errors;
}

}  // namespace schema_test
